import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../shared/auth/tokens.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { GRIEVANCE_NOTICE_SHARDS, grievanceNoticeQueue } from '../../shared/db/keys.ts';
import { queryAll, transact } from '../../shared/db/table.ts';
import { deliverGrievanceNotices, MIN_NOTICE_DELAY_MS } from '../../shared/grievances/notice-delivery.ts';
import { queuedNoticeWrite, raiserNotice } from '../../shared/grievances/notices.ts';
import { listNotifications, unreadCount } from '../../shared/notifications/notifications.ts';
import { registerPushToken } from '../../shared/push/tokens.ts';
import { type PushMessage, type PushTransport, setPushTransport } from '../../shared/transports/push.ts';
import { newMember } from '../support/api.ts';
import { move, raise, reply, world } from './helpers.ts';

/**
 * The test runtime runs no schedules: these tests call the delivery as its schedule would, with the
 * batch clock they choose (other files' queued notices may be delivered by these calls too: harmless,
 * each notice is delivered once whoever runs the batch).
 */
const at = (iso: string, plusMs: number) => new Date(Date.parse(iso) + plusMs);
const grievanceNotes = async (userId: string) =>
  (await listNotifications(userId, 50)).filter((n) => n.kind === 'grievance' || n.kind === 'mention');

/** Every queued notice of every shard (tests only: a batch reads only the due ones). */
const queued = async () =>
  (
    await Promise.all(
      Array.from({ length: GRIEVANCE_NOTICE_SHARDS }, (_, s) =>
        queryAll({ pk: grievanceNoticeQueue(s), consistent: true }),
      ),
    )
  ).flat();

afterEach(() => setPushTransport(undefined));

describe('grievance notice delivery', () => {
  it('waits for a batch at least the minimum delay after the event, stamped with the batch second', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    const r = await reply(other, g.id, 'A colleague adds something');
    await deliverGrievanceNotices(at(r.createdAt, MIN_NOTICE_DELAY_MS - 500));
    expect(await grievanceNotes(raiser.id)).toEqual([]);
    expect(await unreadCount(raiser.id)).toBe(0);

    const batch = at(r.createdAt, MIN_NOTICE_DELAY_MS + 1200);
    await deliverGrievanceNotices(batch);
    const notes = await grievanceNotes(raiser.id);
    expect(notes).toHaveLength(1);
    const second = Math.floor(batch.getTime() / 1000) * 1000;
    expect(notes[0]).toMatchObject({ kind: 'grievance', preview: g.subject, actor: null, readAt: null });
    expect(notes[0].createdAt).toBe(new Date(second).toISOString());
    expect(Date.parse(notes[0].createdAt) - Date.parse(r.createdAt)).toBeGreaterThan(1000);
    expect(await unreadCount(raiser.id)).toBe(1);
  });

  it('gives every notification of one batch the same time, whichever event and grievance caused it', async () => {
    const [a, b] = await Promise.all([world(), world()]);
    const tagged = await newMember();
    const ga = await raise(a.raiser);
    const gb = await raise(b.raiser);
    await move(a.handler, ga.id, 'in_review', 'Picked up');
    const last = await reply(b.other, gb.id, `Asking @[${tagged.id}]`);
    await deliverGrievanceNotices(at(last.createdAt, MIN_NOTICE_DELAY_MS + 1000));
    const notes = [
      ...(await grievanceNotes(a.raiser.id)),
      ...(await grievanceNotes(b.raiser.id)),
      ...(await grievanceNotes(tagged.id)),
    ];
    expect(notes.map((n) => n.kind).sort()).toEqual(['grievance', 'grievance', 'mention']);
    expect(new Set(notes.map((n) => n.createdAt)).size).toBe(1);
  });

  it('delivers each notice once when runs overlap, the unread counter moving with it', async () => {
    const { raiser, handler } = await world();
    const g = await raise(raiser);
    const moved = await move(handler, g.id, 'in_review', 'Picked up');
    const batch = at(moved.updatedAt, MIN_NOTICE_DELAY_MS + 1000);
    await Promise.all([deliverGrievanceNotices(batch), deliverGrievanceNotices(batch), deliverGrievanceNotices(batch)]);
    expect(await grievanceNotes(raiser.id)).toHaveLength(1);
    expect(await unreadCount(raiser.id)).toBe(1);
  });

  it('drops the notices of a grievance that no longer exists', async () => {
    // No route deletes a grievance; a notice queued for an id that names none stands for one that is
    // gone (deleting a real grievance here would upset the board totals other tests count).
    const { raiser } = await world();
    const gone = newSortableId();
    const eventAt = new Date();
    await transact([queuedNoticeWrite(gone, raiserNotice(raiser.id), eventAt)]);
    expect((await queued()).filter((q) => q.grievanceId === gone)).toHaveLength(1);
    await deliverGrievanceNotices(new Date(eventAt.getTime() + MIN_NOTICE_DELAY_MS + 1000));
    expect(await grievanceNotes(raiser.id)).toEqual([]);
    expect(await unreadCount(raiser.id)).toBe(0);
    expect((await queued()).filter((q) => q.grievanceId === gone)).toEqual([]);
  });

  it('delivers a notice queued before notices stored their shard and event time', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    const r = await reply(other, g.id, 'A colleague adds something');
    const [notice] = (await queued()).filter((q) => q.grievanceId === g.id);
    expect(notice).toMatchObject({ shard: expect.any(Number), eventAt: r.createdAt });
    // As an earlier version queued it: the shard and event time in the key only.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: notice.pk, sk: notice.sk },
        UpdateExpression: 'REMOVE #shard, eventAt',
        ExpressionAttributeNames: { '#shard': 'shard' },
      }),
    );
    await deliverGrievanceNotices(at(r.createdAt, MIN_NOTICE_DELAY_MS + 1000));
    expect(await grievanceNotes(raiser.id)).toHaveLength(1);
    expect((await queued()).filter((q) => q.grievanceId === g.id)).toEqual([]);
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
    // The queued notice names nobody in the clear: the recipient is sealed.
    const notice = (await queued()).find((q) => q.grievanceId === g.id)!;
    expect(JSON.stringify(notice)).not.toContain(tagged.id);
    expect(notice.anon).toBe(true);
    await deliverGrievanceNotices(at(r.createdAt, MIN_NOTICE_DELAY_MS + 1000));
    const mine = sent.filter((s) => s.userId === tagged.id);
    expect(mine.map((s) => s.message.kind)).toEqual(['mention']);
    expect(mine[0].message).toMatchObject({ title: 'You were mentioned', link: '/feed' });
    expect(mine[0].message.body).toContain(g.subject);
  });
});
