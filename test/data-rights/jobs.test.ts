import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { PersonErasure } from '../../shared/data-rights/entities.ts';
import { erasureStep } from '../../shared/data-rights/erasure.ts';
import { LEASE_MS, newLease } from '../../shared/data-rights/lease.ts';
import { applyPeopleRetention } from '../../shared/data-rights/retention.ts';
import { runDataRightsWork } from '../../shared/data-rights/work.ts';
import { db } from '../../shared/db/client.ts';
import { write } from '../../shared/db/table.ts';
import { User } from '../../shared/people/entities.ts';
import { admin, api, newMember } from '../support/api.ts';

/**
 * Data rights (issue 28) as a super admin and a person meet them: who may start what (409s, the legal
 * hold, a second request answering the first job), the retention sweep's clock, and a stopped erasure
 * completed by a later run. The whole walk over data of every kind is test/data-rights/data-rights.test.ts.
 */
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
    await runDataRightsWork({ now: later(3 * LEASE_MS + 10 * 60_000), only: [body.id] });
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
