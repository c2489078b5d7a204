import { gunzipSync, gzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { putMany, write } from '../../shared/db/table.ts';
import { pendingChanges } from '../../shared/documents/changes.ts';
import { DocumentLease } from '../../shared/documents/entities.ts';
import { readDocument } from '../../shared/documents/whole-list.ts';
import { checkIn, checkOut, toRecord } from '../../shared/hr/attendance.ts';
import { attendanceDoc } from '../../shared/hr/attendance-day.ts';
import { AttendanceRecord } from '../../shared/hr/entities.ts';
import { User, type UserFields } from '../../shared/people/entities.ts';
import { nameKey } from '../../shared/people/listing.ts';
import { foldRoster, ROSTER } from '../../shared/people/roster.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { bucketName, s3 } from '../../shared/storage/client.ts';
import { companyDate } from '../../shared/util/time.ts';
import { admin, api, baseUrl, newMember, uniq } from '../support/api.ts';

/**
 * The whole lists' documents (shared/documents/whole-list.ts): a change reaches each document within
 * its stated bound; the lists answer exactly what the table holds; a 50,000-person roster answers
 * under 6 MB compressed with the same DynamoDB reads as a small one.
 */
const BOUND_MS = 5_000;

async function within<T>(ms: number, probe: () => Promise<T | undefined>): Promise<{ value: T; tookMs: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return { value, tookMs: Date.now() - started };
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a change reaches each document within its bound', () => {
  it('roster: a new member, a rename and a deactivation; answered at once, folded within seconds', async () => {
    const a = await admin();
    const m = await newMember();
    // Answered at once (the pending change), whatever the document's age.
    const members = (await api('GET', '/admin/members', { token: a.token })).body as { id: string }[];
    expect(members.some((x) => x.id === m.id)).toBe(true);
    const folded = await within(BOUND_MS, async () => (await readDocument(ROSTER))?.get(m.id));
    expect(folded.tookMs).toBeLessThan(BOUND_MS);

    const name = `Renamed ${uniq()}`;
    expect((await api('PATCH', `/people/${m.id}/profile`, { token: a.token, body: { name } })).status).toBe(200);
    const chart = (await api('GET', '/org-chart', { token: m.token })).body as { id: string; name: string }[];
    expect(chart.find((n) => n.id === m.id)?.name).toBe(name);
    await within(BOUND_MS, async () => ((await readDocument(ROSTER))?.get(m.id)?.[1] === name ? true : undefined));

    expect(
      (await api('PATCH', `/admin/members/${m.id}/status`, { token: a.token, body: { status: 'deactivated' } })).status,
    ).toBe(200);
    const after = (await api('GET', '/org-chart', { token: a.token })).body as { id: string }[];
    expect(after.some((n) => n.id === m.id)).toBe(false);
    await within(BOUND_MS, async () =>
      (await readDocument(ROSTER))?.get(m.id)?.[6] === 'deactivated' ? true : undefined,
    );
    // Folded: nothing of theirs is pending any more.
    await within(BOUND_MS, async () => ((await pendingChanges(ROSTER)).some((c) => c.key === m.id) ? undefined : true));
  });

  it("today's attendance: a check-in and a check-out, answered at once, folded within seconds", async () => {
    const a = await admin();
    const m = await newMember();
    const date = companyDate(new Date());
    expect((await api('POST', '/attendance/check-in', { token: m.token })).status).toBe(201);
    const today = (await api('GET', '/attendance/today', { token: a.token })).body;
    expect(today.employees.find((e: { employeeId: string }) => e.employeeId === m.id)?.status).toBe('PRESENT');
    await within(BOUND_MS, async () => (await readDocument(attendanceDoc(date)))?.get(m.id));
    expect((await api('POST', '/attendance/check-out', { token: m.token })).status).toBe(201);
    const later = (await api('GET', '/attendance/today', { token: a.token })).body;
    expect(later.employees.find((e: { employeeId: string }) => e.employeeId === m.id)?.status).toBe('CHECKED_OUT');
    await within(BOUND_MS, async () => ((await readDocument(attendanceDoc(date)))?.get(m.id)?.[2] ? true : undefined));
  });
});

describe('a removed profile leaves the roster', () => {
  it("drops an erased person's row (the profile's removal folds a tombstone)", async () => {
    const tag = uniq();
    const [gone] = seeded(tag, 1);
    await putMany([User.item({ ...gone, rev: 0 })]);
    await foldRoster({ full: true });
    expect((await readDocument(ROSTER))?.get(gone.id)).toBeDefined();
    await write(User.remove({ id: gone.id }));
    await within(BOUND_MS, async () => ((await readDocument(ROSTER))?.has(gone.id) ? undefined : true));
    const a = await admin();
    const members = (await api('GET', '/admin/members', { token: a.token })).body as { id: string }[];
    expect(members.some((x) => x.id === gone.id)).toBe(false);
  });
});

describe('folds coalesce', () => {
  it('folds a burst of 300 check-ins in a few folds, not 300', async () => {
    // A day of its own, far away, so that its document and lease are this test's alone.
    const day = new Date('2033-05-10T09:00:00Z');
    const date = companyDate(day);
    const doc = attendanceDoc(date);
    const people = Array.from({ length: 300 }, () => ({ id: `burst-${uniq()}`, name: 'Burst' }));
    for (let i = 0; i < people.length; i += 30) await Promise.all(people.slice(i, i + 30).map((p) => checkIn(p, day)));
    const { tookMs } = await within(15_000, async () => {
      const rows = await readDocument(doc);
      return rows && people.every((p) => rows.has(p.id)) && (await pendingChanges(doc)).length === 0 ? true : undefined;
    });
    const lease = await DocumentLease.get({ doc }, { consistent: true });
    expect(lease?.folds ?? 0).toBeGreaterThan(0);
    expect(lease?.folds ?? 0).toBeLessThanOrEqual(30);
    expect(tookMs).toBeLessThan(15_000);
  });
});

/** People written straight into the table (no change items: only a rebuild brings them in). */
function seeded(tag: string, n: number, managerOf: (i: number) => string | null = () => null): UserFields[] {
  const joined = Date.parse('2020-01-01T00:00:00Z');
  return Array.from({ length: n }, (_, i) => ({
    ...blankProfile(),
    id: `wl-${tag}-${String(i).padStart(5, '0')}`,
    email: `wl-${tag}-${i}@example.com`,
    name: `${['Zoë', 'Ana', 'ángel', 'Bo', 'bo'][i % 5]} ${tag} ${i % 37}`,
    role: i % 50 === 0 ? 'super_admin' : 'member',
    status: i % 11 === 0 ? 'deactivated' : i % 7 === 0 ? 'pending' : 'active',
    title: `T${i % 13}`,
    currentWork: i % 3 ? `work ${i}` : '',
    managerId: managerOf(i),
    joinedAt: new Date(joined + (i % 97) * 60_000).toISOString(),
    isFeatured: i % 17 === 0,
    featuredNote: i % 17 === 0 ? 'note' : '',
  }));
}

describe('the document-served answers are exact', () => {
  it('equal what the table gives, for a seeded company of 300 people', async () => {
    const tag = uniq();
    const people = seeded(tag, 300, (i) =>
      i > 0 && i % 4 !== 0 ? `wl-${tag}-${String(i % 20).padStart(5, '0')}` : null,
    );
    await putMany(people.map((u) => User.item({ ...u, rev: 0 })));
    await foldRoster({ full: true });
    const mine = (id: string) => id.startsWith(`wl-${tag}-`);
    const table = (await User.queryAll({ index: 'members', key: {} })).filter((u) => mine(u.id));
    const a = await admin();

    // /admin/members: newest first (joinedAt, then id, descending), manager names.
    const byId = new Map(table.map((u) => [u.id, u]));
    const expectedMembers = [...table]
      .sort((x, y) => (`${y.joinedAt}#${y.id}` < `${x.joinedAt}#${x.id}` ? -1 : 1))
      .map((u) => ({
        id: u.id,
        name: u.name,
        email: u.email,
        image: u.image ?? null,
        title: u.title ?? '',
        role: u.role,
        status: u.status,
        managerId: u.managerId ?? null,
        managerName: u.managerId ? (byId.get(u.managerId)?.name ?? null) : null,
        joinedAt: u.joinedAt,
        isFeatured: !!u.isFeatured,
        featuredNote: u.featuredNote ?? '',
      }));
    const members = (await api('GET', '/admin/members', { token: a.token })).body.filter((x: { id: string }) =>
      mine(x.id),
    );
    expect(members).toEqual(expectedMembers);

    // /org-chart: the name index's order (read from the index itself).
    const byName = (await User.queryAll({ index: 'byName', key: {} })).filter((u) => mine(u.id));
    const listed = new Set(byName.map((u) => u.id));
    const chart = (await api('GET', '/org-chart', { token: a.token })).body.filter((x: { id: string }) => mine(x.id));
    expect(chart).toEqual(
      byName.map((u) => ({
        id: u.id,
        name: u.name,
        image: u.image ?? null,
        title: u.title ?? '',
        currentWork: u.currentWork ?? '',
        status: u.status,
        managerId: u.managerId && listed.has(u.managerId) ? u.managerId : null,
      })),
    );
    expect(byName.map((u) => (u as Record<string, unknown>).gsi4sk)).toEqual([
      ...byName.map((u) => `${nameKey(u.name)}#${u.id}`),
    ]);

    // /attendance/employees and /leave/context: active people by localeCompare, approvers counted on listed reports.
    const active = table
      .filter((u) => u.status === 'active')
      .sort((x, y) => x.name.localeCompare(y.name) || x.id.localeCompare(y.id));
    const employees = (await api('GET', '/attendance/employees', { token: a.token })).body.filter((x: { id: string }) =>
      mine(x.id),
    );
    expect(employees).toEqual(active.map((u) => ({ id: u.id, name: u.name })));
    const reports = new Map<string, number>();
    for (const u of table)
      if (u.managerId && u.status !== 'deactivated') reports.set(u.managerId, (reports.get(u.managerId) ?? 0) + 1);
    // Today's attendance: a few of them check in (one also out); every active one listed, in order.
    const now = new Date();
    const date = companyDate(now);
    for (const u of active.slice(0, 5)) await checkIn(u, now);
    await checkOut(active[0], new Date(now.getTime() + 1000));
    const records = new Map(
      (await AttendanceRecord.queryAll({ index: 'byDay', key: { date } })).map((r) => [r.employeeId, r]),
    );
    const today = (await api('GET', '/attendance/today', { token: a.token })).body;
    expect(today.employees.filter((e: { employeeId: string }) => mine(e.employeeId))).toEqual(
      active.map((u) => toRecord(u, date, records.get(u.id))),
    );
    expect(
      today.employees.filter(
        (e: { status: string; employeeId: string }) => mine(e.employeeId) && e.status !== 'NOT_CHECKED_IN',
      ),
    ).toHaveLength(5);

    const context = (await api('GET', '/leave/context', { token: a.token })).body;
    expect(context.managers.filter((x: { id: string }) => mine(x.id))).toEqual(
      active
        .filter((u) => u.role === 'super_admin' || (reports.get(u.id) ?? 0) >= 1)
        .map((u) => ({ id: u.id, name: u.name, image: u.image ?? null })),
    );
  });
});

describe('a 50,000-person roster', () => {
  afterAll(async () => {
    // The real roster again (the rebuild drops rows whose people the table does not hold).
    await foldRoster({ full: true });
  });

  /** DynamoDB calls and bytes answered while `fn` runs, in this process. */
  async function reads(fn: () => Promise<unknown>): Promise<{ calls: number; bytes: number }> {
    const counted = { calls: 0, bytes: 0 };
    const name = `count-${uniq()}`;
    db().middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        counted.calls++;
        counted.bytes += Buffer.byteLength(JSON.stringify((out as { output: unknown }).output ?? {}));
        return out;
      },
      { step: 'initialize', name },
    );
    try {
      await fn();
    } finally {
      db().middlewareStack.remove(name);
    }
    return counted;
  }

  async function writeRoster(extra: number): Promise<void> {
    const stored = (await readDocument(ROSTER)) ?? new Map();
    const rows: Record<string, unknown[]> = Object.fromEntries(stored);
    for (let i = 0; i < extra; i++)
      rows[`big-${String(i).padStart(6, '0')}`] = [
        0,
        `P${i}`,
        `p${i}@x.io`,
        null,
        'Eng',
        'member',
        'active',
        i > 0 ? `big-${String(Math.floor((i - 1) / 5)).padStart(6, '0')}` : null,
        '2024-01-01T00:00:00.000Z',
        false,
        '',
        '',
      ];
    const body = gzipSync(JSON.stringify({ form: 1, name: ROSTER, builtAt: new Date().toISOString(), rows }));
    await s3().send(
      new PutObjectCommand({
        Bucket: bucketName(),
        Key: `documents/${ROSTER}.json.gz`,
        Body: body,
        ContentEncoding: 'gzip',
      }),
    );
  }

  it('answers whole, under 6 MB compressed, with the DynamoDB reads of a 5,000-person one', async () => {
    const { listMembers } = await import('../../shared/people/members.ts');
    const { orgChart } = await import('../../shared/people/directory.ts');
    await writeRoster(5_000);
    const small = await reads(() => Promise.all([listMembers(), orgChart()]));
    await writeRoster(50_000);
    const large = await reads(() => Promise.all([listMembers(), orgChart()]));
    expect(large.calls).toBe(small.calls);
    expect(large.bytes).toBeLessThanOrEqual(small.bytes * 1.5 + 1024);

    const a = await admin();
    for (const path of ['/admin/members', '/org-chart', '/attendance/employees']) {
      const res = await fetch(`${baseUrl()}/api/v1${path}`, {
        headers: { authorization: `Bearer ${a.token}`, 'accept-encoding': 'gzip' },
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-encoding'), path).toBe('gzip');
      const compressed = Buffer.from(await res.arrayBuffer());
      // fetch decodes gzip itself; the bytes on the wire are what content-length says.
      const wire = Number(res.headers.get('content-length') ?? compressed.length);
      expect(wire, path).toBeLessThan(6 * 1024 * 1024);
      const list = JSON.parse((compressed[0] === 0x1f ? gunzipSync(compressed) : compressed).toString('utf8'));
      expect(list.filter((x: { id: string }) => x.id.startsWith('big-')).length, path).toBe(50_000);
    }
    // Without gzip, an answer over the 6 MB response limit is a clear 406, not the platform's 500.
    const plain = await fetch(`${baseUrl()}/api/v1/admin/members`, {
      headers: { authorization: `Bearer ${a.token}`, 'accept-encoding': 'identity' },
    });
    expect(plain.status).toBe(406);
    expect(((await plain.json()) as { message: string }).message).toMatch(/Accept-Encoding: gzip/);
  }, 180_000);
});
