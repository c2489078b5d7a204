import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type Reporter, type TestModule, type TestSpecification } from 'vitest/node';

/**
 * Where a run's time goes, file by file. The reporter prints the slowest files after every run (CI's
 * output keeps them) and, with `UPDATE_TEST_DURATIONS=1`, records every file's duration in
 * test/file-durations.json; the sequencer starts the longest files first from that record, so the two
 * workers finish together on a fresh clone too (vitest's own record lives in node_modules/.vite, which
 * a fresh clone lacks).
 */
const ROOT = join(import.meta.dirname, '../..');
const RECORD = join(ROOT, 'test/file-durations.json');
const SLOWEST = 15;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A file's wall time in its worker: its environment, setup files, imports, hooks and tests. */
function wallTime(module: TestModule): number {
  const d = module.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
}

export class FileDurationsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const times = modules
      .map((m) => ({ file: relative(ROOT, m.moduleId), ms: wallTime(m), tests: [...m.children.allTests()].length }))
      .sort((a, b) => b.ms - a.ms);
    if (times.length === 0) return;
    const total = times.reduce((n, t) => n + t.ms, 0);
    const lines = times.slice(0, SLOWEST).map((t) => `  ${seconds(t.ms).padStart(9)}  ${t.file} (${t.tests} tests)`);
    process.stdout.write(
      `\nSlowest ${Math.min(SLOWEST, times.length)} of ${times.length} files (${seconds(total)} of file time in all):\n${lines.join('\n')}\n`,
    );
    if (process.env.UPDATE_TEST_DURATIONS === '1') {
      const record = Object.fromEntries(
        times.sort((a, b) => a.file.localeCompare(b.file)).map((t) => [t.file, Math.round(t.ms)]),
      );
      writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
    }
  }
}

/** Longest files first, from the record; files it does not know (new ones) before them all. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const record: Record<string, number> = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, 'utf8')) : {};
    const known = (spec: TestSpecification) => record[relative(ROOT, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => known(b) - known(a));
  }
}
