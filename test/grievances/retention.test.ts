import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { env } from '../../shared/config/env.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { personTag } from '../../shared/grievances/anonymity.ts';
import {
  Grievance,
  GrievanceSeen,
  GrievanceStats,
  GrievanceStatusChange,
  GrievanceTotals,
} from '../../shared/grievances/entities.ts';
import { raiseGrievance } from '../../shared/grievances/grievances.ts';
import { deliverGrievanceNotices } from '../../shared/grievances/notice-delivery.ts';
import { markRead as markGrievanceRead } from '../../shared/grievances/read-state.ts';
import { createReply } from '../../shared/grievances/replies.ts';
import { eraseExpiredGrievances } from '../../shared/grievances/retention.ts';
import { moveStatus } from '../../shared/grievances/status.ts';
import { totalOf } from '../../shared/grievances/totals.ts';
import { STATUSES } from '../../shared/grievances/vocabulary.ts';
import { listNotifications, markRead, unreadCount } from '../../shared/notifications/notifications.ts';
import { api, newMember, uniq } from '../support/api.ts';
import { atTime, DAY_MS, daysAgo, expectStatus, scanTable, world } from './helpers.ts';

/**
 * The retention sweep (shared/grievances/retention.ts), driven with the real clock over grievances
 * raised and finished in the past with a faked clock (`atTime`): only they are old enough to erase.
 * (The anonymity test runs it too, with a retention period that reaches only its own grievance.)
 */
const input = () => ({
  subject: `Retained ${uniq()}`,
  description: 'A description that is long enough to raise.',
  category: 'other' as const,
});
const stored = (id: string) => Grievance.get({ id }, { consistent: true });
const seen = async (userId: string) =>
  (await GrievanceSeen.get({ personTag: personTag(userId) }, { consistent: true }))?.seen ?? 0;
const statsOfDay = (day: string) => GrievanceStats.get({ day }, { consistent: true });
const at = (d: Date, ms: number) => new Date(d.getTime() + ms);

/**
 * Whether the board totals equal a recount of the stored grievances. Other test files write meanwhile,
 * so it compares only when the totals item did not change during the recount (tries for ~20 s).
 */
async function totalsMatchRecount(): Promise<void> {
  let last = '';
  for (let i = 0; i < 20; i++) {
    const before = await GrievanceTotals.get({}, { consistent: true });
    const grievances = (await scanTable()).filter(Grievance.is);
    const after = await GrievanceTotals.get({}, { consistent: true });
    if (JSON.stringify(before) === JSON.stringify(after)) {
      const recount = {
        all: grievances.length,
        ...Object.fromEntries(STATUSES.map((s) => [s, grievances.filter((g) => g.status === s).length])),
      };
      const counted = {
        all: after ? totalOf(after, {}) : 0,
        ...Object.fromEntries(STATUSES.map((s) => [s, after ? totalOf(after, { status: s }) : 0])),
      };
      if (JSON.stringify(counted) === JSON.stringify(recount)) return;
      last = `${JSON.stringify(counted)} vs ${JSON.stringify(recount)}`;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the board totals never matched a recount: ${last}`);
}

afterEach(() => {
  delete process.env.GRIEVANCE_RETENTION_DAYS;
});

describe('grievance retention', () => {
  it('is off unless configured, and refuses fewer than 30 days', async () => {
    expect(env.grievanceRetentionDays).toBeUndefined();
    process.env.GRIEVANCE_RETENTION_DAYS = '29';
    expect(() => env.grievanceRetentionDays).toThrow(/at least 30/);
    process.env.GRIEVANCE_RETENTION_DAYS = '30';
    expect(env.grievanceRetentionDays).toBe(30);
    delete process.env.GRIEVANCE_RETENTION_DAYS;

    const { raiser, handler } = await world();
    const t = daysAgo(400);
    const g = await atTime(t, () => raiseGrievance(raiser.id, input()));
    await atTime(at(t, DAY_MS), () => moveStatus(handler.id, g.id, 'closed', 'Nothing to do'));
    expect(await eraseExpiredGrievances()).toBe(0);
    expect(await stored(g.id)).toBeDefined();
  });

  it('erases a grievance finished longer ago, everything that refers to it, and keeps every counter exact', async () => {
    const { raiser, other, handler } = await world();
    const tagged = await newMember();
    const t = daysAgo(60);
    const g = await atTime(t, () => raiseGrievance(raiser.id, input()));
    await atTime(at(t, 60_000), async () => markGrievanceRead(other.id, (await stored(g.id))!));
    await atTime(at(t, 120_000), () => createReply(other.id, g.id, `Asking @[${tagged.id}]`, { asHandler: false }));
    await atTime(at(t, 180_000), () => createReply(handler.id, g.id, 'Received', { asHandler: true }));
    await atTime(at(t, DAY_MS), () => moveStatus(handler.id, g.id, 'resolved', 'Sorted out'));
    await deliverGrievanceNotices(at(t, DAY_MS + 10_000), t);
    // The raiser heard of the colleague's reply, the handler's reply and the move; one is read.
    const notes = (await listNotifications(raiser.id, 50)).filter((n) => n.preview === g.subject);
    expect(notes).toHaveLength(3);
    await markRead(raiser.id, notes[0].id);
    expect((await listNotifications(tagged.id, 50)).filter((n) => n.preview.includes(g.subject))).toHaveLength(1);

    // Kept: one finished recently, and one finished long ago but reopened since.
    const recent = await raiseGrievance(raiser.id, input());
    await moveStatus(handler.id, recent.id, 'closed', 'Closed now');
    const reopened = await atTime(t, () => raiseGrievance(raiser.id, input()));
    await atTime(at(t, DAY_MS), () => moveStatus(handler.id, reopened.id, 'resolved', 'Sorted out'));
    await moveStatus(handler.id, reopened.id, 'in_review', 'It came back');

    const before = {
      raiserUnread: await unreadCount(raiser.id),
      taggedUnread: await unreadCount(tagged.id),
      raiserSeen: await seen(raiser.id),
      otherSeen: await seen(other.id),
      raisedDay: await statsOfDay(g.createdAt.slice(0, 10)),
    };
    const erased = await eraseExpiredGrievances(new Date(), 30);
    expect(erased).toBeGreaterThanOrEqual(1);

    // Gone, as if it never existed.
    for (const path of [
      `/admin/grievances/${g.id}`,
      `/admin/grievances/${g.id}/replies`,
      `/admin/grievances/${g.id}/status-changes`,
      `/admin/grievances/${g.id}/export`,
      `/grievances/${g.id}`,
    ]) {
      expect((await api('GET', path, { token: handler.token })).status, path).toBe(404);
    }
    expect((await api('POST', `/grievances/${g.id}/read`, { token: other.token })).status).toBe(404);
    const left = (await scanTable()).filter((i) => JSON.stringify(i).includes(g.id));
    expect(left.map((i) => `${i.pk}/${i.sk}`)).toEqual([]);
    expect((await listNotifications(raiser.id, 50)).filter((n) => n.preview.includes(g.subject))).toEqual([]);
    expect((await listNotifications(tagged.id, 50)).filter((n) => n.preview.includes(g.subject))).toEqual([]);

    // Counters: two unread notifications less for the raiser, one for the tagged colleague; the raiser's
    // and the reader's own grievance counters one less (their unread grievance counts do not move).
    expect(await unreadCount(raiser.id)).toBe(before.raiserUnread - 2);
    expect(await unreadCount(tagged.id)).toBe(before.taggedUnread - 1);
    expect(await seen(raiser.id)).toBe(before.raiserSeen - 1);
    expect(await seen(other.id)).toBe(before.otherSeen - 1);
    await totalsMatchRecount();
    // Statistics describe what happened: the raise day's counters stay; the erasure is counted and audited.
    expect(await statsOfDay(g.createdAt.slice(0, 10))).toEqual(before.raisedDay);
    const today = new Date().toISOString().slice(0, 10);
    const stats = expectStatus(
      await api('GET', `/admin/grievances/stats?from=${today}&to=${today}`, { token: handler.token }),
      200,
    );
    expect(stats.erasures.erased).toBeGreaterThanOrEqual(erased);
    // Runs in the same second (another test file's) share one audit item.
    expect(stats.erasures.runs.reduce((n: number, r: any) => n + r.erased, 0)).toBeGreaterThanOrEqual(erased);
    expect(stats.erasures.runs.every((r: any) => r.at.startsWith(today))).toBe(true);

    // The others stay, readable.
    for (const kept of [recent, reopened]) {
      expectStatus(await api('GET', `/admin/grievances/${kept.id}`, { token: handler.token }), 200, kept.id);
    }
    // A rerun finds nothing more of it.
    await eraseExpiredGrievances(new Date(), 30);
    expect(await stored(recent.id)).toBeDefined();
  });

  it('erases history entries written before they stored their move number', async () => {
    const { raiser, handler } = await world();
    const t = daysAgo(60);
    const g = await atTime(t, () => raiseGrievance(raiser.id, input()));
    await atTime(at(t, DAY_MS), () => moveStatus(handler.id, g.id, 'closed', 'Done'));
    await deliverGrievanceNotices(at(t, DAY_MS + 10_000), t);
    // As the history entries of an earlier version: the move number in the key only.
    const entries = await GrievanceStatusChange.queryAll({ key: { grievanceId: g.id }, consistent: true });
    expect(entries.map((e) => e.move)).toEqual([0, 1]);
    for (const e of entries) {
      await db().send(
        new UpdateCommand({ TableName: tableName(), Key: { pk: e.pk, sk: e.sk }, UpdateExpression: 'REMOVE move' }),
      );
    }
    expect(await eraseExpiredGrievances(new Date(), 30)).toBeGreaterThanOrEqual(1);
    const left = (await scanTable()).filter((i) => JSON.stringify(i).includes(g.id));
    expect(left.map((i) => `${i.pk}/${i.sk}`)).toEqual([]);
  });
});
