/**
 * `npm run bench`: every benchmark section in turn; exits non-zero when any section breaches its
 * budget. Add a section by appending to `sections`.
 */
import { benchBundleSizes } from './bundle-sizes.ts';
import { directoryBench } from './directory.ts';
import { feedBench } from './feed.ts';
import { benchGrievances } from './grievances.ts';
import { benchLive } from './live.ts';

interface Section {
  name: string;
  /** Resolves to true when within budget. */
  run: () => Promise<boolean>;
}

const sections: Section[] = [
  {
    name: 'Bundle sizes per function',
    run: async () => (await benchBundleSizes()).overBudget.length === 0,
  },
  {
    name: 'Grievances: requests and read capacity at 10 and 10,000 grievances',
    run: () => benchGrievances(),
  },
  { name: 'Directory at 10 and 10,000 people', run: directoryBench },
  { name: 'Feed: requests per page and per leaderboard at 10 and 1,000 posts (FEED_BENCH_POSTS)', run: feedBench },
  {
    name: 'Live updates: write-to-frame latency, idle stream cost, stream scale (reads per key at 100 connections), cost per client-hour',
    run: benchLive,
  },
];

let failed = 0;
for (const section of sections) {
  console.log(`\n== ${section.name} ==`);
  try {
    if (!(await section.run())) {
      failed++;
      console.log(`FAILED: ${section.name} breached its budget`);
    }
  } catch (err) {
    failed++;
    console.error(`FAILED: ${section.name}:`, err instanceof Error ? err.message : err);
  }
}
console.log(failed ? `\n${failed} bench section(s) failed` : '\nall bench sections within budget');
process.exit(failed ? 1 : 0);
