import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DataExport, PersonErasure } from '../../shared/data-rights/entities.ts';
import { erasureStep } from '../../shared/data-rights/erasure.ts';
import { exportPrefix } from '../../shared/data-rights/export-document.ts';
import { JOBS_FAILED_METRIC } from '../../shared/data-rights/job-failure.ts';
import { LEASE_MS, newLease } from '../../shared/data-rights/lease.ts';
import { applyPeopleRetention } from '../../shared/data-rights/retention.ts';
import { MAX_ATTEMPTS, runDataRightsWork } from '../../shared/data-rights/work.ts';
import { db } from '../../shared/db/client.ts';
import { write } from '../../shared/db/table.ts';
import { metrics } from '../../shared/observability/metrics.ts';
import { User } from '../../shared/people/entities.ts';
import { type EmailMessage, setEmailTransport } from '../../shared/transports/email.ts';
import { admin, api, newMember } from '../support/api.ts';
import { runtimeOfItsOwn, type SeededCompany } from '../support/seeded-company.ts';
import { storedObjects } from '../support/stored-data.ts';

/**
 * Data rights (issues 28 and 33) as a super admin and a person meet them: who may start what (409s, the
 * legal hold, a second request answering the first job), the retention sweep's clock, a stopped erasure
 * completed by a later run, a super admin's export as a job of its own with its notice, and a failing
 * job that does not hold up the others. The whole walk over data of every kind is test/data-rights/data-rights.test.ts.
 *
 * Each job walks the whole table, so the file runs on a table of its own: its cost does not grow with
 * what the rest of the suite stored.
 */
let runtime: SeededCompany;
beforeAll(async () => {
  runtime = await runtimeOfItsOwn();
}, 120_000);
afterAll(() => runtime?.stop());

const later = (ms: number) => () => Date.now() + ms;

async function deactivated() {
  const m = await newMember();
  const a = await admin();
  expect(
    (await api('PATCH', `/admin/members/${m.id}/status`, { token: a.token, body: { status: 'deactivated' } })).status,
  ).toBe(200);
  return m;
}

describe('erasure requests', () => {
  it('refuse an active person, a person under a legal hold, and nobody (404)', async () => {
    const a = await admin();
    const active = await newMember();
    const refused = await api('DELETE', `/admin/members/${active.id}`, { token: a.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/deactivate/i);
    expect((await api('DELETE', '/admin/members/no-such-person', { token: a.token })).status).toBe(404);

    const held = await deactivated();
    const hold = await api('PUT', `/admin/members/${held.id}/legal-hold`, {
      token: a.token,
      body: { legalHold: true },
    });
    expect(hold.status).toBe(200);
    expect(hold.body).toEqual({ userId: held.id, legalHold: true });
    const blocked = await api('DELETE', `/admin/members/${held.id}`, { token: a.token });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toMatch(/legal hold/i);
    // The retention does not erase them either, however long ago they left.
    await write(
      User.update(
        { id: held.id },
        { UpdateExpression: 'SET deactivatedAt = :t', ExpressionAttributeValues: { ':t': '2020-01-01T00:00:00.000Z' } },
      ),
    );
    await applyPeopleRetention(30);
    expect((await User.get({ id: held.id }, { consistent: true }))?.erasureId).toBeUndefined();

    const lifted = await api('PUT', `/admin/members/${held.id}/legal-hold`, {
      token: a.token,
      body: { legalHold: false },
    });
    expect(lifted.body).toEqual({ userId: held.id, legalHold: false });
    expect((await api('DELETE', `/admin/members/${held.id}`, { token: a.token })).status).toBe(200);
  });

  it('answer the same erasure when asked twice, and keep the person from being reactivated or held meanwhile', async () => {
    const a = await admin();
    const m = await deactivated();
    const first = await api('DELETE', `/admin/members/${m.id}`, { token: a.token });
    const second = await api('DELETE', `/admin/members/${m.id}`, { token: a.token });
    expect(first.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(first.body).toMatchObject({ status: 'running', reason: 'super_admin', finishedAt: null });
    const reactivate = await api('PATCH', `/admin/members/${m.id}/status`, {
      token: a.token,
      body: { status: 'active' },
    });
    expect(reactivate.status).toBe(409);
    const hold = await api('PUT', `/admin/members/${m.id}/legal-hold`, { token: a.token, body: { legalHold: true } });
    expect(hold.status).toBe(409);
  });

  it('are for super admins only', async () => {
    const m = await newMember();
    const other = await newMember();
    expect((await api('DELETE', `/admin/members/${other.id}`, { token: m.token })).status).toBe(403);
    expect((await api('POST', `/admin/members/${other.id}/data-export`, { token: m.token })).status).toBe(403);
    expect(
      (await api('PUT', `/admin/members/${other.id}/legal-hold`, { token: m.token, body: { legalHold: true } })).status,
    ).toBe(403);
  });
});

describe('the people retention', () => {
  it('is off unless set, starts the clock of a person deactivated without one, and erases after the period', async () => {
    const m = await deactivated();
    const clockless = await deactivated();
    await write(User.update({ id: clockless.id }, { UpdateExpression: 'REMOVE deactivatedAt' }));

    expect(await applyPeopleRetention(undefined)).toEqual({ started: 0 });
    // Deactivated just now: not yet.
    await applyPeopleRetention(30);
    expect((await User.get({ id: m.id }, { consistent: true }))?.erasureId).toBeUndefined();
    const started = (await User.get({ id: clockless.id }, { consistent: true }))?.deactivatedAt;
    expect(started).toBeDefined();

    const in31Days = new Date(Date.now() + 31 * 86_400_000);
    await applyPeopleRetention(30, in31Days);
    for (const id of [m.id, clockless.id]) {
      const erasureId = (await User.get({ id }, { consistent: true }))?.erasureId;
      expect(erasureId).toBeDefined();
      expect((await PersonErasure.get({ id: erasureId! }))?.reason).toBe('retention');
    }
  });

  it('refuses a period under 30 days', async () => {
    const { env } = await import('../../shared/config/env.ts');
    const saved = process.env.PEOPLE_RETENTION_DAYS;
    try {
      process.env.PEOPLE_RETENTION_DAYS = '29';
      expect(() => env.peopleRetentionDays).toThrow(/PEOPLE_RETENTION_DAYS/);
      process.env.PEOPLE_RETENTION_DAYS = '30';
      expect(env.peopleRetentionDays).toBe(30);
      process.env.PEOPLE_RETENTION_DAYS = '';
      expect(env.peopleRetentionDays).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.PEOPLE_RETENTION_DAYS;
      else process.env.PEOPLE_RETENTION_DAYS = saved;
    }
  });
});

describe('a stopped erasure', () => {
  it('is completed by a later run once its lease ran out, and is not taken while the lease holds', async () => {
    const a = await admin();
    const m = await deactivated();
    // An item of a kind this release does not declare (a newer release's, during a rollback) that names them.
    const future = { pk: `FUTURE#${m.id}`, sk: 'X', entity: 'FromANewerRelease', owner: m.id };
    await db().send(new PutCommand({ TableName: process.env.TABLE_NAME!, Item: future }));
    const { body } = await api('DELETE', `/admin/members/${m.id}`, { token: a.token });
    // A worker takes it and records one page, then stops (a crash: its lease stays).
    const lease = newLease();
    await write(
      PersonErasure.update(
        { id: body.id },
        { UpdateExpression: 'SET leaseUntil = :l', ExpressionAttributeValues: { ':l': lease } },
      ),
    );
    const job = (await PersonErasure.get({ id: body.id }, { consistent: true }))!;
    const after = await erasureStep(job, lease, { pageSize: 5 });
    expect(after?.walk).toMatchObject({ pages: 1, scanned: 5, tableDone: false });

    // While its lease holds, another run leaves it alone.
    await runDataRightsWork({ only: [body.id] });
    expect((await PersonErasure.get({ id: body.id }, { consistent: true }))?.walk.pages).toBe(1);

    // Once it ran out, the next run goes on from the recorded page and finishes.
    await runDataRightsWork({ now: later(LEASE_MS + 60_000), only: [body.id] });
    // It waits for the change feed to settle before its last pass over the change log, then ends.
    const settling = (await PersonErasure.get({ id: body.id }, { consistent: true }))!;
    expect(settling.status).toBe('running');
    expect(settling.liveAfter).toBeDefined();
    // Then it walks the table a second time (what landed while it ran), settles again, and ends.
    await runDataRightsWork({ now: later(3 * LEASE_MS + 10 * 60_000), only: [body.id] });
    const walkedAgain = (await PersonErasure.get({ id: body.id }, { consistent: true }))!;
    expect(walkedAgain.status).toBe('running');
    expect(walkedAgain.again?.tableDone).toBe(true);
    await runDataRightsWork({ now: later(6 * LEASE_MS + 20 * 60_000), only: [body.id] });
    const done = await api('GET', `/admin/erasures/${body.id}`, { token: a.token });
    expect(done.body.status).toBe('done');
    expect(done.body.progress.pages).toBeGreaterThan(1);
    // The audit record keeps counts and times, nothing about the person.
    const record = (await PersonErasure.get({ id: body.id }, { consistent: true }))!;
    expect(JSON.stringify(record)).not.toContain(m.id);
    expect(JSON.stringify(record).toLowerCase()).not.toContain(m.email.toLowerCase());
    expect(JSON.stringify(record)).not.toContain(m.name);
    expect(record.counts['User.deleted']).toBe(1);
    // The unknown kind is left as it is, and said so in the audit record.
    expect(record.counts['FromANewerRelease.left']).toBe(1);
    await db().send(new DeleteCommand({ TableName: process.env.TABLE_NAME!, Key: { pk: future.pk, sk: future.sk } }));
    expect(
      (await api('GET', '/admin/members', { token: a.token })).body.map((x: { id: string }) => x.id),
    ).not.toContain(m.id);
  }, 240_000);
});

describe("a super admin's export", () => {
  it('of someone whose own export is running is a job of its own, recorded with the notice it owes, which the worker sends until sent', async () => {
    const a = await admin();
    const m = await newMember();
    const own = await api('POST', '/users/me/data-export', { token: m.token });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ status: 'running', requestedBy: m.id, notice: null });

    const asked = await api('POST', `/admin/members/${m.id}/data-export`, { token: a.token });
    expect(asked.status).toBe(201);
    expect(asked.body.id).not.toBe(own.body.id);
    expect(asked.body).toMatchObject({ status: 'running', userId: m.id, requestedBy: a.user.id });
    // The notice is recorded with the job before the answer (nothing is sent by the request).
    expect(asked.body.notice).toEqual({ email: 'pending', inApp: 'pending' });
    const stored = (await DataExport.get({ id: asked.body.id }, { consistent: true }))!;
    expect(stored.requestedBy).toBe(a.user.id);
    expect(stored.notice).toMatchObject({ email: 'pending', inApp: 'pending', attempts: 0 });
    expect((await DataExport.get({ id: own.body.id }, { consistent: true }))!.requestedBy).toBe(m.id);
    // Asking again is another job; the person's own request still answers their own.
    const again = await api('POST', `/admin/members/${m.id}/data-export`, { token: a.token });
    expect(new Set([own.body.id, asked.body.id, again.body.id]).size).toBe(3);
    expect((await api('POST', '/users/me/data-export', { token: m.token })).body.id).toBe(own.body.id);

    // The transport fails once, then works: the e-mail is not lost.
    const sent: EmailMessage[] = [];
    let calls = 0;
    setEmailTransport({
      async send(message) {
        calls++;
        if (calls === 1) throw Object.assign(new Error(`SES refused ${message.to}`), { name: 'MessageRejected' });
        sent.push(message);
      },
    });
    try {
      await runDataRightsWork({ only: [asked.body.id] });
      const first = (await DataExport.get({ id: asked.body.id }, { consistent: true }))!;
      expect(first.notice).toMatchObject({
        email: 'pending',
        inApp: 'sent',
        attempts: 1,
        lastError: 'MessageRejected',
      });
      // The export itself went on meanwhile.
      expect(first.status).toBe('ready');
      // The notification on the bell, once.
      const bell = await api('GET', '/notifications', { token: m.token });
      const notices = (bell.body as any[]).filter(
        (n) => n.kind === 'announcement' && /copy of the data/.test(n.preview),
      );
      expect(notices).toHaveLength(1);
      expect(notices[0].actor).toBeNull();

      await runDataRightsWork({ now: later(LEASE_MS + 60_000), only: [asked.body.id] });
      const second = (await DataExport.get({ id: asked.body.id }, { consistent: true }))!;
      expect(second.notice).toMatchObject({ email: 'sent', inApp: 'sent' });
      expect(sent.map((x) => x.to)).toEqual([m.email]);
      expect(sent[0].subject).toMatch(/copy of your data/i);
      // Sent: the job leaves the worker's work, and a later run sends nothing more.
      await runDataRightsWork({ now: later(3 * LEASE_MS), only: [asked.body.id] });
      expect(sent).toHaveLength(1);
      const bellAfter = await api('GET', '/notifications', { token: m.token });
      expect((bellAfter.body as any[]).filter((n) => n.kind === 'announcement')).toHaveLength(1);
    } finally {
      setEmailTransport(undefined);
    }
    // The person reads the admin's export at their own route (they were told of it); nobody else does.
    const read = await api('GET', `/users/me/data-export/${asked.body.id}`, { token: m.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ requestedBy: a.user.id, status: 'ready', notice: { email: 'sent' } });
    const stranger = await newMember();
    expect((await api('GET', `/users/me/data-export/${asked.body.id}`, { token: stranger.token })).status).toBe(404);
  }, 120_000);

  it('is refused (409) once the person is being erased, and one already running stops, its objects erased', async () => {
    const a = await admin();
    const m = await deactivated();
    const running = await api('POST', `/admin/members/${m.id}/data-export`, { token: a.token });
    expect(running.status).toBe(201);
    // A deactivated person cannot sign in: no notification, only the e-mail.
    expect(running.body.notice).toEqual({ email: 'pending', inApp: null });
    expect((await api('DELETE', `/admin/members/${m.id}`, { token: a.token })).status).toBe(200);

    const refused = await api('POST', `/admin/members/${m.id}/data-export`, { token: a.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(refused.body.message).toMatch(/erased/);

    // The running one stops at its next step: marked failed with the reason, nothing left in the bucket,
    // and the notice dropped (nothing is sent to a person being erased).
    const sent: EmailMessage[] = [];
    setEmailTransport({ send: async (message) => void sent.push(message) });
    try {
      await runDataRightsWork({ only: [running.body.id] });
    } finally {
      setEmailTransport(undefined);
    }
    const stopped = await api('GET', `/admin/members/${m.id}/data-export/${running.body.id}`, { token: a.token });
    expect(stopped.body).toMatchObject({
      status: 'failed',
      error: 'stopped: the person is being erased',
      url: null,
      notice: { email: 'dropped', inApp: null },
    });
    expect(sent).toEqual([]);
    const left = (await storedObjects()).objects.filter((o) => o.key.startsWith(exportPrefix(running.body.id)));
    expect(left).toEqual([]);
  }, 120_000);

  it("is refused (409) at the person's own route too once they carry an erasure mark", async () => {
    const m = await newMember();
    await write(
      User.update({ id: m.id }, { UpdateExpression: 'SET erasureId = :e', ExpressionAttributeValues: { ':e': 'x' } }),
    );
    try {
      const refused = await api('POST', '/users/me/data-export', { token: m.token });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    } finally {
      await write(User.update({ id: m.id }, { UpdateExpression: 'REMOVE erasureId' }));
    }
    expect((await api('POST', '/users/me/data-export', { token: m.token })).status).toBe(201);
  });
});

describe('a failing job', () => {
  it('is retried with backoff, then failed with a reason, while the jobs after it finish in the same runs', async () => {
    const a = await admin();
    // Two erasures and two exports, the first of each older and made to fail by what is stored.
    const p1 = await deactivated();
    const p2 = await deactivated();
    const e1 = (await api('DELETE', `/admin/members/${p1.id}`, { token: a.token })).body.id as string;
    const e2 = (await api('DELETE', `/admin/members/${p2.id}`, { token: a.token })).body.id as string;
    // The first erasure's recorded position names no key of the table (a walk it cannot go on from).
    await write(
      PersonErasure.update(
        { id: e1 },
        {
          UpdateExpression: 'SET walk.#c = :c',
          ExpressionAttributeNames: { '#c': 'cursor' },
          ExpressionAttributeValues: { ':c': { pk: 'NOWHERE' } },
        },
      ),
    );
    const x1 = await newMember();
    const x2 = await newMember();
    const f1 = (await api('POST', `/admin/members/${x1.id}/data-export`, { token: a.token })).body.id as string;
    const f2 = (await api('POST', '/users/me/data-export', { token: x2.token })).body.id as string;
    // The first export's record says its walk is done with one part, which the bucket does not hold.
    await write(
      DataExport.update(
        { id: f1 },
        {
          UpdateExpression: 'SET walk.tableDone = :t, parts = :one',
          ExpressionAttributeValues: { ':t': true, ':one': 1 },
        },
      ),
    );
    const failedMetric = vi.spyOn(metrics, 'addMetric');
    let counted: unknown[][] = [];
    const jobs = [e1, e2, f1, f2];
    // The runs' clock counts from one moment, not from when each run starts: how long a run takes in
    // real time must not move a later run past a retry time it is meant to come before.
    const start = Date.now();
    const run = (minutes: number) => runDataRightsWork({ now: () => start + minutes * 60_000, only: jobs });
    const erasure = async (id: string) => (await api('GET', `/admin/erasures/${id}`, { token: a.token })).body;
    const exported = async (u: string, id: string) =>
      (await api('GET', `/admin/members/${u}/data-export/${id}`, { token: a.token })).body;
    try {
      // Run 1: the first of each fails its step once and waits; the second of each goes on.
      await run(0);
      expect(await erasure(e1)).toMatchObject({ status: 'running', attempts: 1 });
      expect((await erasure(e1)).retryAt).not.toBeNull();
      expect(await exported(x1.id, f1)).toMatchObject({ status: 'running', attempts: 1 });
      expect(await exported(x2.id, f2)).toMatchObject({ status: 'ready', attempts: 0, error: null });
      // (The second erasure has walked the table and waits for the change feed to settle.)
      expect((await PersonErasure.get({ id: e2 }, { consistent: true }))?.walk.objectsDone).toBe(true);
      // A run before the retry time leaves the failing ones alone.
      await run(0.5);
      expect((await erasure(e1)).attempts).toBe(1);
      // Later runs, each after the backoff: the second erasure ends, the first ones fail for good.
      for (let k = 1; k <= MAX_ATTEMPTS; k++) await run(k * 30);
      expect((await erasure(e2)).status).toBe('done');
      counted = failedMetric.mock.calls.filter(([name]) => name === JOBS_FAILED_METRIC);
    } finally {
      failedMetric.mockRestore();
    }
    const e1Now = await erasure(e1);
    expect(e1Now).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      retryAt: null,
      error: 'table walk: an invalid position in the table walk',
    });
    const f1Now = await exported(x1.id, f1);
    expect(f1Now).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      error: 'assembly: an object it needs is missing',
      url: null,
      // Its notice went out whatever became of it.
      notice: { email: 'sent', inApp: 'sent' },
    });
    // The reasons hold no personal data; the metric counted both jobs.
    for (const reason of [e1Now.error, f1Now.error])
      for (const needle of [p1.id, p1.email, p1.name, x1.id, x1.email]) expect(reason).not.toContain(needle);
    expect(counted).toHaveLength(2);

    // The failed erasure keeps the door closed: no reactivation, no export.
    expect(
      (await api('PATCH', `/admin/members/${p1.id}/status`, { token: a.token, body: { status: 'active' } })).status,
    ).toBe(409);
    expect((await api('POST', `/admin/members/${p1.id}/data-export`, { token: a.token })).status).toBe(409);
    // Once the cause is fixed, a super admin's DELETE re-queues it and it finishes from where it stood.
    await write(
      PersonErasure.update(
        { id: e1 },
        {
          UpdateExpression: 'SET walk.#c = :c',
          ExpressionAttributeNames: { '#c': 'cursor' },
          ExpressionAttributeValues: { ':c': null },
        },
      ),
    );
    const requeued = await api('DELETE', `/admin/members/${p1.id}`, { token: a.token });
    expect(requeued.body).toMatchObject({ id: e1, status: 'running', attempts: 0, error: null });
    // (Its walk and objects, a settle; its second walk, another settle; its last pass.)
    await run(300);
    await run(400);
    await run(500);
    expect((await erasure(e1)).status).toBe('done');
  }, 240_000);
});
