import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/**
 * The log lines of a test run (the local runtime's and the domain code's, Powertools JSON and EMF
 * metrics) go to one file per run rather than between the test results: vitest.config.ts names it in
 * this variable, every process of the run (the runtime's, each test worker) appends to it, and the
 * reporter (runtime-log-reporter.ts) names it, with its tail when a test failed.
 */
export const RUNTIME_LOG_VARIABLE = 'TEST_RUNTIME_LOG';

export const runtimeLogFile = (): string | undefined => process.env[RUNTIME_LOG_VARIABLE] || undefined;

/** Powertools' JSON lines (logs, metrics) and its one plain-text warning about empty metric sets. */
const isLogLine = (line: string) =>
  (line.startsWith('{') && line.endsWith('}')) || line.startsWith('No application metrics to publish');

const DIVERTED = Symbol.for('workplace.test.logsDiverted');

/** Appends to the run's log file whatever this process writes that is a log line; the rest goes out as before. */
export function divertLogLines(): void {
  const file = runtimeLogFile();
  const proc = process as unknown as Record<symbol, boolean>;
  if (!file || proc[DIVERTED]) return;
  proc[DIVERTED] = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      if (lines.length === 0 || !lines.every((l) => isLogLine(l.trim()))) return write(chunk, ...rest);
      appendFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
      const done = rest.find((a) => typeof a === 'function') as (() => void) | undefined;
      if (done) queueMicrotask(done);
      return true;
    }) as typeof stream.write;
  }
}

/** The last `count` lines of the run's log file. */
export function runtimeLogTail(count: number): string[] {
  const file = runtimeLogFile();
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count);
}

/** A line for the runtime's own messages (emulators started, handler load failures). */
export function appendToRuntimeLog(line: string): void {
  const file = runtimeLogFile();
  if (file) appendFileSync(file, `${line}\n`);
}
