/**
 * `npm run bench`: every benchmark section in turn; exits non-zero when any section breaches its
 * budget. `npm run bench -- cold feed` runs only the sections whose name contains one of the words
 * (case-insensitive; `scale` names the scale section alone). Add a section by appending to `sections`.
 */
import { benchColdStarts } from './cold-start.ts';
import { companyBench } from './company.ts';
import { directoryBench } from './directory.ts';
import { feedBench } from './feed.ts';
import { benchGrievances } from './grievances.ts';
import { benchLive } from './live.ts';
import { benchOrphans } from './orphans.ts';
import { scaleBench } from './scale.ts';

interface Section {
  name: string;
  /** Resolves to true when within budget. */
  run: () => Promise<boolean>;
}

const sections: Section[] = [
  {
    name: 'Bundle sizes and cold starts: code per function, cold import against the floor',
    run: () => benchColdStarts(),
  },
  {
    name: 'Grievances: requests and read capacity at 10 and 10,000 grievances',
    run: () => benchGrievances(),
  },
  { name: 'Directory at 10 and 10,000 people', run: directoryBench },
  {
    name: 'Company at 8,000 people (COMPANY_BENCH_PEOPLE): the first GET /birthdays/today with five birthdays, /admin/members, /org-chart, /attendance/today within their deadlines; reply notifications (p99 of 20) within 2 s while the birthdays of the day and an announcement fan out; one birthday notification per person; writes per birthday day and per announcement',
    run: companyBench,
  },
  {
    name: 'Scale: every GET route at 400 and at 4,000 people (SCALE_BENCH_SIZES) with a year of data, 50,000 modelled; DynamoDB reads flat, answers within their limits',
    run: scaleBench,
  },
  { name: 'Feed: requests per page and per leaderboard at 10 and 1,000 posts (FEED_BENCH_POSTS)', run: feedBench },
  {
    name: 'Live updates: write-to-frame latency, idle stream cost, reads per key at 100 connections, cost per client-hour',
    run: benchLive,
  },
  {
    name: 'Live stream orphans: 50 reloads of one person, 200 clients that vanish; orphans bounded, cost per client-hour with orphans',
    run: benchOrphans,
  },
];

const only = process.argv.slice(2).map((w) => w.toLowerCase());
const chosen = only.length ? sections.filter((s) => only.some((w) => s.name.toLowerCase().includes(w))) : sections;
if (!chosen.length) {
  console.error(`no bench section matches ${only.join(', ')}`);
  process.exit(1);
}

let failed = 0;
for (const section of chosen) {
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
