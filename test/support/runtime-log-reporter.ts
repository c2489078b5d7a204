import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';
import { runtimeLogFile, runtimeLogTail } from './runtime-log.ts';

/** How much of the log a failed run shows: enough for the failure's last requests and errors. */
const TAIL_LINES = 40;

/** How much of a failure's message the summary keeps: its gist, not the whole diff. */
const REASON_CHARS = 300;

/** The first lines of an error's message, on one line: why a test failed, in a CI log's last lines. */
export function reasonOf(errors: ReadonlyArray<{ message?: string; name?: string }> | undefined): string {
  const first = errors?.[0];
  if (!first) return '';
  const text = `${first.name && first.name !== 'Error' ? `${first.name}: ` : ''}${first.message ?? ''}`;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > REASON_CHARS ? `${flat.slice(0, REASON_CHARS)}…` : flat;
}

/**
 * The failed tests' names, file first, each with the gist of its first error: what a reader of only
 * the output's last lines needs most.
 */
export function failedTestNames(modules: ReadonlyArray<TestModule>): string[] {
  const names: string[] = [];
  const withReason = (name: string, errors: Parameters<typeof reasonOf>[0]) => {
    const reason = reasonOf(errors);
    return reason ? `${name}\n      ${reason}` : name;
  };
  for (const module of modules) {
    const failed = [...module.children.allTests('failed')];
    for (const test of failed) names.push(withReason(`${module.moduleId} > ${test.fullName}`, test.result().errors));
    // A file that failed outside any test (a hook, an import, a timeout of the file).
    if (failed.length === 0 && module.state() === 'failed') {
      names.push(withReason(`${module.moduleId} (the file itself)`, module.errors()));
    }
  }
  return names;
}

/**
 * After the summary: where the run's log lines went and, when something failed, their tail followed by
 * the failed tests' names, so that the last lines of the output (all a CI log may keep) say what failed.
 */
export default class RuntimeLogReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): void {
    const file = runtimeLogFile();
    if (file && reason === 'failed') {
      const tail = runtimeLogTail(TAIL_LINES);
      if (tail.length) process.stdout.write(`\nLast ${tail.length} lines of the runtime log:\n${tail.join('\n')}\n`);
    }
    if (file) process.stdout.write(`Runtime log: ${file}\n`);
    if (reason === 'failed') {
      const names = failedTestNames(modules);
      process.stdout.write(`\nFailed (${names.length}):\n${names.map((n) => `  ${n}`).join('\n')}\n`);
    }
  }
}
