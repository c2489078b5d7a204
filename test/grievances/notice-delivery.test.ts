import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../shared/auth/tokens.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { transact } from '../../shared/db/table.ts';
import { GrievanceNotice } from '../../shared/grievances/entities.ts';
import { deliverGrievanceNotices } from '../../shared/grievances/notice-delivery.ts';
import {
  maxReleaseDelayMs,
  noticeTiming,
  openNotice,
  queuedNoticeWrites,
  raiserNotice,
} from '../../shared/grievances/notices.ts';
import { GRIEVANCE_NOTICE_SHARDS } from '../../shared/grievances/shards.ts';
import { listNotifications, markRead, unreadCount } from '../../shared/notifications/notifications.ts';
import { registerPushToken } from '../../shared/push/tokens.ts';
import { type PushMessage, type PushTransport, setPushTransport } from '../../shared/transports/push.ts';
import { newMember } from '../support/api.ts';
import { move, putLegacyNotice, raise, reply, world } from './helpers.ts';

/**
 * The test runtime runs no schedules: these tests call the delivery as its schedule would, with the
 * batch clock they choose (other files' queued notices may be delivered by these calls too: harmless,
 * each notice is delivered once whoever runs the batch).
 */
const at = (iso: string, plusMs: number) => new Date(Date.parse(iso) + plusMs);
const grievanceNotes = async (userId: string) =>
  (await listNotifications(userId, 50)).filter((n) => n.kind === 'grievance' || n.kind === 'mention');
/** Waits until a notice queued at `iso` is released (a batch never delivers one before), answers the clock. */
async function afterRelease(iso: string): Promise<Date> {
  const when = at(iso, maxReleaseDelayMs() + noticeTiming().settleMs + 300);
  await new Promise((r) => setTimeout(r, Math.max(0, when.getTime() - Date.now())));
  return when;
}

/** Every queued notice of every shard, opened (tests only: a batch reads only the released ones). */
const queued = async () =>
  (
    await Promise.all(
      Array.from({ length: GRIEVANCE_NOTICE_SHARDS }, (_, s) =>
        GrievanceNotice.queryAll({ key: { shard: s }, consistent: true }),
      ),
    )
  )
    .flat()
    .map((q) => ({ q, p: openNotice(q) }));

afterEach(() => setPushTransport(undefined));

describe('grievance notice delivery', () => {
  it('delivers a notice dated before the recipient marked all read as unread, and counts it', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    const r = await reply(other, g.id, 'Said before the mark');
    const clock = await afterRelease(r.createdAt);
    // The raiser marks everything read after the notice's date, before a batch delivers it.
    await markRead(raiser.id, undefined);
    expect(await unreadCount(raiser.id)).toBe(0);
    await deliverGrievanceNotices(clock);
    const notes = (await grievanceNotes(raiser.id)).filter((n) => n.preview === g.subject);
    expect(notes).toHaveLength(1);
    expect(Date.parse(notes[0].createdAt)).toBeLessThan(Date.now());
    expect(notes[0].readAt).toBeNull();
    expect(await unreadCount(raiser.id)).toBe(1);
    // Delivered once: a batch reading it again changes nothing.
    await deliverGrievanceNotices(clock);
    expect(await unreadCount(raiser.id)).toBe(1);
  });

  it('queues a notice sealed, released at a rounded time after a random delay, the notification dated apart from the event', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    const r = await reply(other, g.id, 'A colleague adds something');
    const t = noticeTiming();
    const [{ q, p }] = (await queued()).filter(({ p }) => p?.grievanceId === g.id);
    // Nothing of the grievance, the recipient or the event in the clear.
    expect(JSON.stringify(q)).not.toContain(g.id);
    expect(JSON.stringify(q)).not.toContain(raiser.id);
    expect(q.eventAt).toBeUndefined();
    expect(q.kind).toBeUndefined();
    expect(Date.parse(q.releaseAt!) % t.roundMs).toBe(0);
    expect(Date.parse(q.releaseAt!)).toBeGreaterThanOrEqual(Date.parse(p!.notifyAt));
    expect(Date.parse(p!.notifyAt) - Date.parse(r.createdAt)).toBeGreaterThanOrEqual(t.minDelayMs);

    await deliverGrievanceNotices(at(r.createdAt, t.minDelayMs - 300));
    expect(await grievanceNotes(raiser.id)).toEqual([]);
    expect(await unreadCount(raiser.id)).toBe(0);

    await deliverGrievanceNotices(await afterRelease(r.createdAt));
    const notes = await grievanceNotes(raiser.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ id: p!.notificationId, kind: 'grievance', preview: g.subject, actor: null });
    expect(notes[0].createdAt).toBe(p!.notifyAt);
    expect(await unreadCount(raiser.id)).toBe(1);
    // The delivery leaves the notice where it was: its removal would sit beside the notification.
    expect((await queued()).filter(({ p }) => p?.grievanceId === g.id)).toHaveLength(1);
  });

  it('randomises the delay: notices of one event are not all dated alike', async () => {
    const { raiser } = await world();
    const eventAt = new Date();
    const gid = newSortableId();
    const writes = Array.from({ length: 12 }, () => queuedNoticeWrites(gid, raiserNotice(raiser.id), eventAt)[0]);
    await transact(writes);
    const mine = (await queued()).filter(({ p }) => p?.grievanceId === gid).map(({ p }) => p!.notifyAt);
    expect(mine).toHaveLength(12);
    expect(new Set(mine).size).toBeGreaterThan(1);
  });

  it('delivers each notice once when runs overlap and when a later run reads it again', async () => {
    const { raiser, handler } = await world();
    const g = await raise(raiser);
    const moved = await move(handler, g.id, 'in_review', 'Picked up');
    const batch = await afterRelease(moved.updatedAt);
    await Promise.all([deliverGrievanceNotices(batch), deliverGrievanceNotices(batch), deliverGrievanceNotices(batch)]);
    await new Promise((r) => setTimeout(r, 1000));
    await deliverGrievanceNotices();
    expect(await grievanceNotes(raiser.id)).toHaveLength(1);
    expect(await unreadCount(raiser.id)).toBe(1);
  });

  it('drops the notices of a grievance that no longer exists, and removes notices a day after their release', async () => {
    // No route deletes a grievance; a notice queued for an id that names none stands for one that is
    // gone (deleting a real grievance here would upset the board totals other tests count).
    const { raiser } = await world();
    const gone = newSortableId();
    const eventAt = new Date();
    await transact(queuedNoticeWrites(gone, raiserNotice(raiser.id), eventAt));
    expect((await queued()).filter(({ p }) => p?.grievanceId === gone)).toHaveLength(1);
    await deliverGrievanceNotices(await afterRelease(eventAt.toISOString()));
    expect(await grievanceNotes(raiser.id)).toEqual([]);
    expect(await unreadCount(raiser.id)).toBe(0);

    const old = new Date(Date.now() - 2 * 86_400_000);
    await transact(queuedNoticeWrites(gone, raiserNotice(raiser.id), old));
    expect((await queued()).filter(({ p }) => p?.notifyAt.startsWith(old.toISOString().slice(0, 10)))).not.toEqual([]);
    await deliverGrievanceNotices(new Date());
    expect((await queued()).filter(({ q }) => q.releaseAt! < new Date(Date.now() - 86_400_000).toISOString())).toEqual(
      [],
    );
  });

  it('delivers a notice queued in the 0.2.0 form (grievance and event time in the clear, the recipient sealed)', async () => {
    const { raiser } = await world();
    const g = await raise(raiser);
    const { id, eventAt } = await putLegacyNotice(g.id, raiser.id, 1);
    await deliverGrievanceNotices(await afterRelease(eventAt));
    expect((await grievanceNotes(raiser.id)).map((n) => n.preview)).toEqual([g.subject]);
    expect((await queued()).filter(({ q }) => q.id === id)).toEqual([]);
  });

  it('pushes a grievance mention when the batch delivers it, to the tagged person only', async () => {
    const sent: { userId: string; message: PushMessage }[] = [];
    const transport: PushTransport = {
      register: async (r) => r.endpointArn ?? `arn:endpoint/${randomUUID()}`,
      unregister: async () => {},
      send: async (target, message) => {
        sent.push({ userId: target.userId, message });
        return 'sent';
      },
    };
    setPushTransport(transport);
    const { raiser, other } = await world();
    const tagged = await newMember();
    await registerPushToken(tagged.id, hashToken(tagged.token), { token: `tok-${randomUUID()}`, platform: 'android' });
    const g = await raise(raiser);
    const r = await reply(other, g.id, `Asking @[${tagged.id}]`);
    const notice = (await queued()).find(({ p }) => p?.grievanceId === g.id && p?.kind === 'mention')!;
    expect(JSON.stringify(notice.q)).not.toContain(tagged.id);
    expect((notice.q as { anon?: boolean }).anon).toBe(true);
    await deliverGrievanceNotices(await afterRelease(r.createdAt));
    const mine = sent.filter((s) => s.userId === tagged.id);
    expect(mine.map((s) => s.message.kind)).toEqual(['mention']);
    expect(mine[0].message).toMatchObject({ title: 'You were mentioned', link: '/feed' });
    expect(mine[0].message.body).toContain(g.subject);
  });
});
