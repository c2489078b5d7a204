import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';
import { runtimeLogFile, runtimeLogTail } from './runtime-log.ts';

/** How much of the log a failed run shows: enough for the failure's last requests and errors. */
const TAIL_LINES = 40;

/** The failed tests' names, file first: what a reader of only the output's last lines needs most. */
export function failedTestNames(modules: ReadonlyArray<TestModule>): string[] {
  const names: string[] = [];
  for (const module of modules) {
    const failed = [...module.children.allTests('failed')];
    for (const test of failed) names.push(`${module.moduleId} > ${test.fullName}`);
    // A file that failed outside any test (a hook, an import, a timeout of the file).
    if (failed.length === 0 && module.state() === 'failed') names.push(`${module.moduleId} (the file itself)`);
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
