/**
 * Directory bench (`npm run bench`): the DynamoDB cost of a `GET /people` page at 10 and at 10,000
 * people, measured on DynamoDB Local with an instrumented client (requests sent, read capacity
 * reported by ReturnConsumedCapacity, bytes of the answers). Fails when
 * - an unfiltered (sorted) page costs more requests at 10,000 people than at 10;
 * - a `q` search or a filtered page breaks the bound docs/data-model.md (People) states, whatever the
 *   size: at most MAX_PAGE_REQUESTS requests and at most MAX_PAGE_RCU read units (the rows and terms
 *   of 0.4.0: a page reads at most 300 terms and their rows, or 500 rows, then the page's people).
 * The people are written with the people area's own item builders (`projectionItems`: profiles, rows,
 * terms, facets) through BatchWrite, with the directory migrations recorded done.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort } from '../../infra/local/runtime.ts';
import { FIRST_NAMES, LAST_NAMES } from '../../infra/seed/company.ts';
import { toDirectoryEntries } from '../../shared/api/profile.ts';
import { setDbClient } from '../../shared/db/client.ts';
import { projectionItems } from '../../shared/people/derived-from-person.ts';
import { type DirectoryQuery, listDirectory } from '../../shared/people/directory.ts';
import type { UserFields } from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';
import {
  batchWrite,
  benchEnv,
  benchTeamItems,
  createTable,
  Meter,
  meteredClient,
  migrationsDoneItems,
  rnd,
} from './support.ts';

/** The bound stated in docs/data-model.md for `q` and filtered pages (rows and terms), at any size. */
export const MAX_PAGE_REQUESTS = 10;
export const MAX_PAGE_RCU = 60;
const SIZES = [10, 10_000];

const TITLES = Array.from(
  { length: 30 },
  (_, i) =>
    `${['Senior', 'Staff', 'Lead', 'Junior', 'Principal'][i % 5]} ${['Engineer', 'Designer', 'Analyst', 'Manager', 'Writer', 'Recruiter'][i % 6]}`,
);
const LOCATIONS = [
  'Lisbon',
  'Porto',
  'Berlin',
  'Madrid',
  'Paris',
  'London',
  'Dublin',
  'Warsaw',
  'Prague',
  'Vienna',
  'Oslo',
  'Helsinki',
  'Remote',
];
const SKILLS = Array.from({ length: 120 }, (_, i) => `skill-${i.toString(36)}`);
const WORDS =
  'build ship design review plan test deploy measure write learn teach debug refactor document mentor lead support scale'.split(
    ' ',
  );

const pick = <T>(list: T[], i: number) => list[i % list.length];

/** A believable person: 3 to 8 skills, a one-sentence bio, a team, a post count; 1 % deactivated, 4 % pending (the first active, the second pending). */
function person(i: number, teams: string[]): UserFields {
  const id = randomUUID();
  const roll = rnd(100);
  return {
    ...blankProfile(),
    id,
    email: `bench-${i}@example.com`,
    name: `${pick(FIRST_NAMES, rnd(1000))} ${pick(LAST_NAMES, rnd(1000))} ${i}`,
    role: 'member',
    status: i === 0 ? 'active' : i === 1 ? 'pending' : roll === 0 ? 'deactivated' : roll < 5 ? 'pending' : 'active',
    title: pick(TITLES, rnd(1000)),
    location: pick(LOCATIONS, rnd(1000)),
    bio: Array.from({ length: 12 }, () => pick(WORDS, rnd(1000))).join(' '),
    skills: [...new Set(Array.from({ length: 3 + rnd(6) }, () => pick(SKILLS, rnd(10_000))))],
    teamId: pick(teams, rnd(1000)),
    postCount: rnd(60),
    joinedAt: new Date(Date.UTC(2015, 0, 1) + rnd(3_000_000) * 100_000).toISOString(),
  };
}

async function seed(doc: DynamoDBDocumentClient, table: string, size: number) {
  const teams = Array.from({ length: Math.max(2, Math.min(20, Math.ceil(size / 50))) }, () => randomUUID());
  const teamItems = benchTeamItems(teams, new Date().toISOString(), () => 0);
  const people = Array.from({ length: size }, (_, i) => person(i, teams));
  await batchWrite(doc, table, [
    ...teamItems,
    ...projectionItems(people),
    ...(await migrationsDoneItems(new Date().toISOString())),
  ]);
  return { people, teams };
}

interface Measure {
  label: string;
  kind: 'sorted' | 'filtered' | 'q';
  query: Omit<DirectoryQuery, 'limit' | 'cursor'>;
}

/** One page as the handler answers it (directory query + entries), then the next page. */
async function measure(meter: Meter, query: Measure['query']) {
  meter.reset();
  const started = performance.now();
  const page = await listDirectory({ ...query, limit: 20 });
  await toDirectoryEntries(page.users);
  const first = { requests: meter.requests, rcu: meter.rcu, ms: performance.now() - started, count: page.users.length };
  meter.reset();
  if (page.nextCursor) {
    const next = await listDirectory({ ...query, limit: 20, cursor: page.nextCursor });
    await toDirectoryEntries(next.users);
  }
  return { ...first, nextRequests: meter.requests };
}

export async function directoryBench(): Promise<boolean> {
  const ddb = await startDynamoDbLocal(null, await freePort()); // in memory: seeding 10,000 people is quicker
  benchEnv();
  const meter = new Meter();
  const doc = meteredClient(ddb.endpoint, meter);
  setDbClient(doc);
  const results = new Map<number, Map<string, Awaited<ReturnType<typeof measure>>>>();
  let measures: Measure[] = [];
  try {
    for (const size of SIZES) {
      const table = `bench-directory-${size}`;
      process.env.TABLE_NAME = table;
      await createTable(ddb.endpoint, table);
      const t0 = performance.now();
      const { people } = await seed(doc, table, size);
      console.log(`directory: seeded ${size} people in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const someone = people[0]; // always active (see person())
      measures = [
        { label: 'sort=name (default)', kind: 'sorted', query: { sort: 'name' } },
        { label: 'sort=recent', kind: 'sorted', query: { sort: 'recent' } },
        { label: 'sort=posts', kind: 'sorted', query: { sort: 'posts' } },
        { label: 'skill', kind: 'filtered', query: { sort: 'name', skill: someone.skills[0] } },
        {
          label: 'role + location, sort=recent',
          kind: 'filtered',
          query: { sort: 'recent', role: someone.title, location: someone.location },
        },
        { label: 'team, sort=posts', kind: 'filtered', query: { sort: 'posts', team: someone.teamId! } },
        { label: 'status=pending', kind: 'filtered', query: { sort: 'name', status: 'pending' } },
        { label: 'q common ("e")', kind: 'q', query: { sort: 'name', q: 'e' } },
        { label: 'q rare (a full name)', kind: 'q', query: { sort: 'name', q: someone.name.toUpperCase() } },
        {
          label: 'q + skill, sort=posts',
          kind: 'q',
          query: { sort: 'posts', q: someone.bio.split(' ')[0], skill: someone.skills[0] },
        },
      ];
      const bySize = new Map<string, Awaited<ReturnType<typeof measure>>>();
      for (const m of measures) {
        await measure(meter, m.query); // warm (connections, code paths)
        bySize.set(m.label, await measure(meter, m.query));
      }
      results.set(size, bySize);
    }
  } finally {
    setDbClient(undefined);
    doc.destroy();
    await ddb.stop();
  }

  const [small, large] = SIZES;
  let ok = true;
  console.log(
    `\n${'query'.padEnd(32)} ${SIZES.map((s) => `${`${s} people: req rcu ms hits`.padStart(30)}`).join(' ')}  verdict`,
  );
  for (const m of measures) {
    const a = results.get(small)!.get(m.label)!;
    const b = results.get(large)!.get(m.label)!;
    const cell = (r: typeof a) =>
      `${r.requests} (+${r.nextRequests})`.padStart(10) +
      r.rcu.toFixed(1).padStart(8) +
      r.ms.toFixed(0).padStart(6) +
      String(r.count).padStart(6);
    const problems: string[] = [];
    if (m.kind === 'sorted' && b.requests !== a.requests)
      problems.push(`requests changed from ${a.requests} to ${b.requests}`);
    if (m.kind === 'sorted' && b.nextRequests > b.requests)
      problems.push(`the next page cost ${b.nextRequests} requests`);
    if (m.kind !== 'sorted') {
      for (const [n, r] of [
        [small, a],
        [large, b],
      ] as const) {
        const most = Math.max(r.requests, r.nextRequests);
        if (most > MAX_PAGE_REQUESTS) problems.push(`${most} requests > ${MAX_PAGE_REQUESTS} at ${n} people`);
        if (r.rcu > MAX_PAGE_RCU) problems.push(`${r.rcu.toFixed(1)} RCU > ${MAX_PAGE_RCU} at ${n} people`);
      }
    } else if (b.rcu > 20) {
      problems.push(`a sorted page read ${b.rcu.toFixed(1)} RCU at ${large} people`);
    }
    if (problems.length) ok = false;
    console.log(
      `${m.label.padEnd(32)} ${cell(a).padStart(30)} ${cell(b).padStart(30)}  ${problems.length ? `FAIL: ${problems.join('; ')}` : 'ok'}`,
    );
  }
  console.log(
    `\nbounds: sorted pages cost the same requests at ${small} and ${large} people; q and filtered pages ≤ ${MAX_PAGE_REQUESTS} requests and ≤ ${MAX_PAGE_RCU} RCU at any size.`,
  );
  return ok;
}
