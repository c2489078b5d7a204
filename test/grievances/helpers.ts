import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect, vi } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { newId, sortableIdTime } from '../../shared/db/ids.ts';
import { seal } from '../../shared/grievances/anonymity.ts';
import { GrievanceNotice } from '../../shared/grievances/entities.ts';
import { sealContexts } from '../../shared/grievances/model.ts';
import { deliverGrievanceNotices } from '../../shared/grievances/notice-delivery.ts';
import { maxReleaseDelayMs, noticeTiming } from '../../shared/grievances/notices.ts';
import { api, settled as feedSettled, newMember, uniq } from '../support/api.ts';

/** Shared steps of the grievance tests (over HTTP, against the run's local runtime). */
export type Person = Awaited<ReturnType<typeof newMember>>;

export const newHandler = () => newMember({ role: 'super_admin' });

export async function world() {
  const [raiser, other, handler] = await Promise.all([newMember(), newMember(), newHandler()]);
  return { raiser, other, handler };
}

export function expectStatus<T = any>(res: { status: number; text: string; body: T }, status: number, what = ''): T {
  if (res.status !== status)
    throw new Error(`${what} expected ${status}, got ${res.status}: ${res.text.slice(0, 300)}`);
  return res.body;
}

export async function raise(p: Person, over: Record<string, unknown> = {}) {
  const tag = uniq();
  const body = {
    subject: `Test grievance ${tag}`,
    description: `A description long enough for ${tag}.`,
    category: 'other',
    ...over,
  };
  return expectStatus(await api('POST', '/grievances', { token: p.token, body }), 201, 'raise');
}

export async function reply(p: Person, grievanceId: string, body: string, { admin = false } = {}) {
  const path = `${admin ? '/admin' : ''}/grievances/${grievanceId}/replies`;
  return expectStatus(await api('POST', path, { token: p.token, body: { body } }), 201, 'reply');
}

export async function move(p: Person, grievanceId: string, status: string, reason = `Reason ${uniq()}`) {
  return expectStatus(
    await api('PATCH', `/admin/grievances/${grievanceId}/status`, { token: p.token, body: { status, reason } }),
    200,
    'move',
  );
}

export async function detail(p: Person, grievanceId: string) {
  return expectStatus(await api('GET', `/grievances/${grievanceId}`, { token: p.token }), 200, 'detail');
}

export async function changes(p: Person, grievanceId: string, { admin = false } = {}) {
  return expectStatus<any[]>(
    await api('GET', `${admin ? '/admin' : ''}/grievances/${grievanceId}/status-changes`, { token: p.token }),
    200,
    'changes',
  );
}

/** Every reply of a grievance, following the cursor. */
export async function allReplies(p: Person, grievanceId: string, { admin = false } = {}) {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const q: string = `limit=50${cursor ? `&cursor=${cursor}` : ''}`;
    const page = expectStatus(
      await api('GET', `${admin ? '/admin' : ''}/grievances/${grievanceId}/replies?${q}`, { token: p.token }),
      200,
      'replies',
    );
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export async function unread(p: Person): Promise<number> {
  return expectStatus(await api('GET', '/grievances/unread-count', { token: p.token }), 200, 'unread').count;
}

/** Every item of the local table. Tests may Scan; request paths never do. */
export async function scanTable(): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let start: Record<string, any> | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

export const mentions = (text: string, needles: string[]) => needles.filter((n) => n && text.includes(n));

/** Fails unless the answer is a 4xx in the common error body. */
export function expectClientError(res: { status: number; body: any; text: string }, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
  expect(res.body, what).toMatchObject({ statusCode: res.status, error: expect.any(String) });
}

/**
 * Runs the notice delivery as its schedule would once every notice queued so far is due (the test
 * runtime runs no schedules), once every notice queued so far is released: it waits for that, since a
 * batch never delivers what is not released yet.
 */
export async function deliverQueuedNotices() {
  await new Promise((r) => setTimeout(r, maxReleaseDelayMs() + noticeTiming().settleMs + 300));
  return deliverGrievanceNotices();
}

/**
 * `read()` once the change feed has delivered everything written so far, and what those deliveries
 * wrote (`settled()` of test/support/api.ts): a comparison must start from a settled table.
 */
export async function settled<T>(read: () => Promise<T>): Promise<T> {
  await feedSettled();
  return read();
}

/** Every item that names one of `people` (id or e-mail), by `pk|sk`, as JSON: their personal items. */
export async function personalItems(people: Person[]): Promise<[string, string][]> {
  const needles = people.flatMap((p) => [p.id, p.email]);
  return (await scanTable())
    .filter((i) => mentions(JSON.stringify(i), needles).length > 0)
    .map((i) => [`${i.pk}|${i.sk}`, JSON.stringify(i)] as [string, string])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;
const isKeyAttribute = (name: string) => /(?:^|gsi\d)(?:pk|sk)$/.test(name);
const isIdAttribute = (name: string) => name === 'id' || name.endsWith('Id');

/**
 * Every time an item carries, in ms: ISO times in any attribute (nested too), epoch numbers (seconds
 * or ms), and the creation time of time-sortable ids in id attributes and in key segments.
 */
export function timesIn(item: unknown): number[] {
  const out: number[] = [];
  const visit = (name: string, v: unknown) => {
    if (typeof v === 'string') {
      for (const m of v.match(ISO_TIME) ?? []) out.push(Date.parse(m));
      const ids = isKeyAttribute(name) ? v.split('#') : isIdAttribute(name) ? [v] : [];
      for (const id of ids) {
        const t = sortableIdTime(id);
        if (t !== null) out.push(t);
      }
    } else if (typeof v === 'number') {
      if (v > 1e12 && v < 1e13) out.push(v);
      else if (v > 1e9 && v < 1e10) out.push(v * 1000);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) visit(k, x);
    }
  };
  visit('', item);
  return out;
}

/**
 * Runs domain code in this process as if the clock read `when` (only `Date` is faked): grievances
 * raised, moved and answered in the past, so the sweeps can be driven with the real clock and touch
 * nothing the other test files create meanwhile.
 */
export async function atTime<T>(when: string | Date, fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(when));
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Delivers the notices of events at `eventAt` (and up to a second before) with the clock set past
 * their release, the way a batch at that time would, leaving the batch cursor alone.
 */
export async function deliverNoticesOf(eventAt: Date | string) {
  const e = new Date(eventAt).getTime();
  return atTime(new Date(e + maxReleaseDelayMs() + noticeTiming().settleMs + 100), () =>
    deliverGrievanceNotices(new Date(), new Date(e - 1000)),
  );
}

/**
 * Queues a notice to `recipientId` about `grievanceId` straight into the table in the form 0.2.0
 * queued it (grievance and event time in the clear, only the recipient sealed), in `shard`, its event
 * now; answers the stored item.
 */
export async function putLegacyNotice(grievanceId: string, recipientId: string, shard: number) {
  const id = newId();
  const eventAt = new Date().toISOString();
  const item = {
    ...GrievanceNotice.key({ shard, releaseAt: eventAt, id }),
    entity: 'GrievanceNotice',
    shard,
    eventAt,
    id,
    grievanceId,
    kind: 'grievance',
    recipientSeal: seal(recipientId, sealContexts.noticeRecipient(grievanceId, id)),
    anon: true,
  };
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
  return item;
}

export const DAY_MS = 86_400_000;
export const daysAgo = (days: number, from = Date.now()) => new Date(from - days * DAY_MS);

/** Every page of an admin list route, following the cursor. */
export async function allPages(p: Person, path: string, limit = 50): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const q: string = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const page = expectStatus(await api('GET', `${path}?${q}`, { token: p.token }), 200, path);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
