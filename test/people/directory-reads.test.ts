import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort } from '../../infra/local/runtime.ts';
import { db, setDbClient } from '../../shared/db/client.ts';
import { putMany } from '../../shared/db/table.ts';
import { projectionItems } from '../../shared/people/derived-from-person.ts';
import { type DirectoryQuery, listDirectory } from '../../shared/people/directory.ts';
import { ROW_BUDGET, TERM_BATCH, TERM_BUDGET } from '../../shared/people/directory-search.ts';
import { Team, type UserFields } from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { migrationsDoneItems } from '../bench/support.ts';
import { addReadMeter, type ReadMeter } from '../support/read-meter.ts';

/**
 * `GET /people` with filters and `q` reads a bounded number of items whatever the size of the company:
 * the same queries on a company of 100 and of 2,000 people seeded straight into tables of their own
 * (the people area's own item builders, as the bench does) on a DynamoDB Local of their own, in memory
 * (seeding is several times quicker), every request counted with the items it read (a Query's evaluated
 * items, a batch read's items).
 */
const SIZES = [100, 2_000] as const;
const FIRST = ['Ann', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal', 'Ida', 'Jo'];
const TITLES = ['Dev', 'Ops', 'Lead', 'Data', 'Sales'];
const PLACES = ['Oslo', 'Rome', 'Lima', 'Kyiv', 'Baku'];
const SKILLS = ['go', 'sql', 'css', 'k8s', 'ml'];
const TEAMS = ['t0', 't1', 't2', 't3', 't4'];

function company(size: number): UserFields[] {
  return Array.from({ length: size }, (_, i) => ({
    ...blankProfile(),
    id: `p${String(i).padStart(5, '0')}`,
    email: `p${i}@example.com`,
    name: `${FIRST[i % FIRST.length]} ${i}`,
    role: 'member' as const,
    status: i % 50 === 7 ? ('pending' as const) : ('active' as const),
    title: TITLES[i % 5],
    location: PLACES[Math.floor(i / 5) % 5],
    skills: [SKILLS[Math.floor(i / 25) % 5]],
    teamId: TEAMS[i % 5],
    postCount: i % 13,
    joinedAt: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
  }));
}

/** Requests sent and items read through the client, counted by a middleware. */
const meter: ReadMeter = { requests: 0, items: 0 };
const localClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
function meteredDb(endpoint: string): DynamoDBDocumentClient {
  const raw = localClient(endpoint);
  addReadMeter(raw.middlewareStack, meter, 'readMeter');
  return DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
}

const queries: Record<string, Omit<DirectoryQuery, 'limit' | 'cursor'>> = {
  'role (a fifth of everybody)': { sort: 'name', role: 'dev' },
  'role + location + skill (sparse), recent': { sort: 'recent', role: 'ops', location: 'rome', skill: 'css' },
  'team, sort=posts (the rows walked)': { sort: 'posts', team: 't2' },
  'status=pending': { sort: 'name', status: 'pending' },
  'q common trigram': { sort: 'name', q: 'ann' },
  'q rare, a whole name': { sort: 'name', q: 'IDA 1998' },
  'q of one character': { sort: 'name', q: '7' },
  'q + skill, sort=posts': { sort: 'posts', q: 'flo', skill: 'ml' },
};
/** The most a page may read: a term walk reads its terms and their rows; a row walk its rows; then the page's people and the team. */
const BOUND = Math.max(2 * TERM_BUDGET, ROW_BUDGET) + 20 + 1;
/** What a dense filter's page reads: its first step (twice the page and one: terms and their rows), the page's people, the team. */
const PAGE_BOUND = 2 * (2 * 20 + 1) + 20 + 1;
const REQUEST_BOUND = 2 * Math.ceil(TERM_BUDGET / TERM_BATCH) + 2 + 2;

const saved = process.env.TABLE_NAME;
const measured = new Map<number, Map<string, { requests: number; items: number; count: number }>>();
/** Every entry the whole walk answers (following cursors), at the larger size. */
const walked = new Map<string, string[]>();
const people2000 = company(2_000);

describe('GET /people reads a bounded number of items, whatever the company', () => {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const client = db();
    const ddb = await startDynamoDbLocal(null, await freePort());
    stop = ddb.stop;
    setDbClient(meteredDb(ddb.endpoint));
    for (const size of SIZES) {
      const table = `directory-reads-${size}-${randomUUID().slice(0, 8)}`;
      process.env.TABLE_NAME = table;
      const admin = localClient(ddb.endpoint);
      await ensureTable(admin, table);
      admin.destroy();
      const now = new Date().toISOString();
      await putMany([
        // A deployment whose migrations are all done (as a fresh one's are): the rows are read.
        ...(await migrationsDoneItems(now)),
        ...TEAMS.map((id) =>
          Team.item({ id, name: id, nameLower: id, color: 'blue', createdAt: now, actorId: 'bench', memberCount: 0 }),
        ),
        ...projectionItems(size === 2_000 ? people2000 : company(size)),
      ]);
      const results = new Map<string, { requests: number; items: number; count: number }>();
      for (const [label, q] of Object.entries(queries)) {
        meter.requests = 0;
        meter.items = 0;
        const page = await listDirectory({ ...q, limit: 20 });
        results.set(label, { requests: meter.requests, items: meter.items, count: page.users.length });
        if (size === 2_000) {
          const all: string[] = [];
          let cursor: string | undefined;
          for (let i = 0; i < 1000; i++) {
            const p = await listDirectory({ ...q, limit: 20, cursor });
            all.push(...p.users.map((u) => u.id));
            if (!p.nextCursor) break;
            cursor = p.nextCursor;
          }
          walked.set(label, all);
        }
      }
      measured.set(size, results);
    }
    setDbClient(client);
  }, 600_000);

  afterAll(async () => {
    process.env.TABLE_NAME = saved;
    await stop?.();
  });

  it('reads at most a fixed number of items and requests a page, at 100 and at 2,000 people', () => {
    const report = Object.keys(queries).map((label) => ({
      label,
      ...Object.fromEntries(
        SIZES.map((n) => {
          const m = measured.get(n)!.get(label)!;
          return [n, `${m.requests} requests, ${m.items} items, ${m.count} entries`];
        }),
      ),
    }));
    console.table(report);
    for (const label of Object.keys(queries))
      for (const n of SIZES) {
        const m = measured.get(n)!.get(label)!;
        expect(m.items, `${label} at ${n}`).toBeLessThanOrEqual(BOUND);
        expect(m.requests, `${label} at ${n}`).toBeLessThanOrEqual(REQUEST_BOUND);
      }
    // A term most people of it match reads about the page at either size: flat, not merely bounded.
    for (const label of ['role (a fifth of everybody)', 'q common trigram'])
      for (const n of SIZES)
        expect(measured.get(n)!.get(label)!.items, `${label} at ${n}`).toBeLessThanOrEqual(PAGE_BOUND);
    // A walk of the rows filling its page at both sizes reads within half as much again at 20 times the people.
    for (const label of ['team, sort=posts (the rows walked)', 'q of one character']) {
      const [small, large] = SIZES.map((n) => measured.get(n)!.get(label)!);
      expect(large.items, label).toBeLessThanOrEqual(small.items * 1.5);
      expect(large.requests, label).toBeLessThanOrEqual(small.requests);
    }
  });

  it('answers exactly the matching people over its pages, in order, even when pages come short', () => {
    const lower = (s: string) => s.toLowerCase();
    const matches = (u: UserFields, q: (typeof queries)[string]) =>
      u.status !== 'deactivated' &&
      (!q.role || lower(u.title) === q.role) &&
      (!q.location || lower(u.location) === q.location) &&
      (!q.skill || u.skills.map(lower).includes(q.skill)) &&
      (!q.team || u.teamId === q.team) &&
      (!q.status || u.status === q.status) &&
      (!q.q || [u.name, u.title, u.bio].some((f) => lower(f).includes(lower(q.q!))));
    for (const [label, q] of Object.entries(queries)) {
      const expected = people2000.filter((u) => matches(u, q));
      const got = walked.get(label)!;
      expect([...got].sort(), label).toEqual(expected.map((u) => u.id).sort());
      expect(new Set(got).size, `${label}: no repeats`).toBe(got.length);
      const byId = new Map(people2000.map((u) => [u.id, u]));
      const keys = got.map((id) => {
        const u = byId.get(id)!;
        return q.sort === 'posts' ? -(u.postCount ?? 0) : q.sort === 'recent' ? -Date.parse(u.joinedAt) : lower(u.name);
      });
      for (let i = 1; i < keys.length; i++) expect(keys[i - 1] <= keys[i], `${label}: in order at ${i}`).toBe(true);
    }
  });
});
