import type { Reporter, TestRunEndReason } from 'vitest/node';
import { runtimeLogFile, runtimeLogTail } from './runtime-log.ts';

/** How much of the log a failed run shows: enough for the failure's last requests and errors. */
const TAIL_LINES = 40;

/** After the summary: where the run's log lines went, and their tail when something failed. */
export default class RuntimeLogReporter implements Reporter {
  onTestRunEnd(_modules: unknown, _errors: unknown, reason: TestRunEndReason): void {
    const file = runtimeLogFile();
    if (!file) return;
    if (reason === 'failed') {
      const tail = runtimeLogTail(TAIL_LINES);
      if (tail.length) process.stdout.write(`\nLast ${tail.length} lines of the runtime log:\n${tail.join('\n')}\n`);
    }
    process.stdout.write(`Runtime log: ${file}\n`);
  }
}
