import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { queryAll, transact } from '../../shared/db/table.ts';
import { seal } from '../../shared/grievances/anonymity.ts';
import {
  Grievance,
  type GrievanceItem,
  GrievanceNotice,
  GrievanceNotificationRef,
  GrievanceReaderRef,
  GrievanceReply,
  GrievanceStatusChange,
} from '../../shared/grievances/entities.ts';
import { notificationOf, readerOf } from '../../shared/grievances/erasure-refs.ts';
import { HANDLING_FIELDS } from '../../shared/grievances/handling.ts';
import {
  legacyNotificationPreview,
  noticeSealWrites,
  readerRefBackfillWrites,
  replayedHandling,
} from '../../shared/grievances/migrations.ts';
import { openNotice } from '../../shared/grievances/notices.ts';
import { GRIEVANCE_NOTICE_SHARDS } from '../../shared/grievances/shards.ts';
import { Notification } from '../../shared/notifications/entities.ts';
import { notificationSealWrites } from '../../shared/notifications/migrations.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { api, newMember } from '../support/api.ts';
import { move, putLegacyNotice, raise, reply, world } from './helpers.ts';

/** The grievance migrations (shared/grievances/migrations.ts) on grievances the live code wrote. */

/** Every item of the grievance's partition, of every kind. */
const partitionOf = (grievanceId: string) => queryAll({ pk: Grievance.key({ id: grievanceId }).pk, consistent: true });

async function stored(grievanceId: string) {
  const partition = await partitionOf(grievanceId);
  return {
    g: (await Grievance.get({ id: grievanceId }, { consistent: true }))!,
    history: partition.filter(GrievanceStatusChange.is),
    replies: partition.filter(GrievanceReply.is),
    refs: partition.filter(GrievanceReaderRef.is),
  };
}

describe('grievance migrations', () => {
  it('replays a grievance history into the handling record the live code wrote', async () => {
    const { raiser, handler } = await world();
    const g = await raise(raiser);
    await move(handler, g.id, 'in_review');
    await reply(handler, g.id, 'We are on it.', { admin: true });
    await move(handler, g.id, 'resolved');
    const { g: live, history, replies } = await stored(g.id);
    const old: GrievanceItem = { ...live };
    for (const f of HANDLING_FIELDS) delete old[f];
    const { grievance } = replayedHandling(old, history, replies);
    // The reminders sent and the revision count the live changes; the deadlines and outcomes must agree.
    for (const f of HANDLING_FIELDS.filter((x) => x !== 'remindersSent' && x !== 'handlingRev'))
      expect([f, grievance[f] ?? null]).toEqual([f, live[f] ?? null]);
  });

  it('gives a read marker written before reader references its reference, once', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    // The first read: marker, counter and reference.
    expect((await api('POST', `/grievances/${g.id}/read`, { token: other.token })).status).toBeLessThan(300);
    const before = await stored(g.id);
    expect(before.refs).toHaveLength(1);
    // The 0.1.0 form: the marker without its reference.
    await db().send(
      new DeleteCommand({ TableName: tableName(), Key: { pk: before.refs[0].pk, sk: before.refs[0].sk } }),
    );

    const writes = await readerRefBackfillWrites(before.g);
    expect(writes).toHaveLength(1);
    await transact(writes);
    const after = await stored(g.id);
    expect(after.refs).toHaveLength(1);
    expect(after.refs[0].sk.startsWith('READER#')).toBe(true);
    expect(readerOf(after.refs[0])).toBe(other.id);
    expect(await readerRefBackfillWrites(after.g)).toEqual([]);
  });

  it('seals a notification stored in the 0.2.0 form (kind in the clear, grievance preview under the grievance key), once', async () => {
    const m = await newMember();
    const id = newSortableId();
    const createdAt = new Date().toISOString();
    // As 0.2.0 stored a grievance notification: kind, actor and preview in the clear, nothing sealed.
    const { sealed: _, ...old } = Notification.item({
      id,
      sealed: '',
      recipientId: m.id,
      kind: 'grievance',
      actorId: null,
      postId: null,
      commentId: null,
      preview: '',
      sealedPreview: seal('An old subject', `notification-preview:${m.id}:${id}`),
      readAt: null,
      createdAt,
      anon: true,
    });
    await db().send(new PutCommand({ TableName: tableName(), Item: old }));
    // Read in both forms until migrated: the old one lists with its kind (its preview needs the grievance key).
    expect((await listNotifications(m.id, 10)).map((n) => n.kind)).toEqual(['grievance']);

    const writes = notificationSealWrites(old, legacyNotificationPreview);
    expect(writes).toHaveLength(1);
    await transact(writes);
    const after = (await Notification.get({ recipientId: m.id, id }, { consistent: true }))!;
    for (const gone of ['kind', 'actorId', 'preview', 'sealedPreview', 'anon'] as const)
      expect(after[gone]).toBeUndefined();
    expect(JSON.stringify(after)).not.toContain('grievance');
    expect(await listNotifications(m.id, 10)).toEqual([
      expect.objectContaining({ id, kind: 'grievance', preview: 'An old subject', actor: null, createdAt }),
    ]);
    expect(notificationSealWrites(after, legacyNotificationPreview)).toEqual([]);
  });

  it('seals a notice queued in the 0.2.0 form and writes the reference of its notification, once', async () => {
    const { raiser } = await world();
    const g = await raise(raiser);
    const old = await putLegacyNotice(g.id, raiser.id, 2);
    const refsBefore = (await partitionOf(g.id)).filter(GrievanceNotificationRef.is);

    const writes = noticeSealWrites(old);
    await transact(writes);
    const queue = (
      await Promise.all(
        Array.from({ length: GRIEVANCE_NOTICE_SHARDS }, (_, s) =>
          GrievanceNotice.queryAll({ key: { shard: s }, consistent: true }),
        ),
      )
    ).flat();
    expect(queue.filter((q) => q.id === old.id)).toEqual([]);
    const converted = queue.filter((q) => openNotice(q)?.grievanceId === g.id);
    expect(converted).toHaveLength(1);
    expect(JSON.stringify(converted[0])).not.toContain(g.id);
    const payload = openNotice(converted[0])!;
    expect(payload).toMatchObject({ recipientId: raiser.id, kind: 'grievance' });
    const refs = (await partitionOf(g.id)).filter(GrievanceNotificationRef.is);
    expect(refs).toHaveLength(refsBefore.length + 1);
    expect(refs.map((r) => notificationOf(r)?.notificationId)).toContain(payload.notificationId);
    expect(noticeSealWrites(converted[0])).toEqual([]);
  });
});
