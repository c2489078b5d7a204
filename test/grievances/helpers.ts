import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { api, newMember, uniq } from '../support/api.ts';

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
