import { randomInt } from 'node:crypto';
import { PRESENT } from '../db/entity.ts';
import { newId } from '../db/ids.ts';
import { GRIEVANCE_NOTICE_SHARDS, grievanceNoticeKeyParts } from '../db/keys.ts';
import { type TransactItem, transact } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { seal, unseal } from './anonymity.ts';
import { GrievanceNotice as QueuedNotice } from './entities.ts';
import { type GrievanceItem, sealContexts } from './model.ts';

/**
 * Who hears of a grievance event: the raiser (kind `grievance`) or a tagged person (kind `mention`).
 * Both are queued with the event and delivered by a later batch (`notice-delivery.ts`), never written
 * to the recipient's own items at the event's time: a raiser's notification stamped with the time of
 * the reply or move that caused it would name the raiser to anyone who can read the table, and a
 * raiser tagged in a reply gets a mention instead (docs/data-model.md, Grievances).
 */
export interface GrievanceNotice {
  recipientId: string;
  kind: 'grievance' | 'mention';
}

/** A notice as queued: in the anonymous part of the table, the recipient sealed. */
export interface QueuedNoticeItem {
  pk: string;
  sk: string;
  entity: 'GrievanceNotice';
  /** The key's composites: its queue shard and its event's time (absent on notices queued before they were stored). */
  shard: number;
  eventAt: string;
  id: string;
  grievanceId: string;
  kind: GrievanceNotice['kind'];
  recipientSeal: string;
}

/** The person who raised `g`, recovered from its seal; null if the seal does not open (another secret). */
export const raiserOf = (g: GrievanceItem): string | null => unseal(g.raiserSeal, sealContexts.raiser(g.id));

export const raiserNotice = (raiserId: string): GrievanceNotice => ({ recipientId: raiserId, kind: 'grievance' });
export const mentionNotice = (recipientId: string): GrievanceNotice => ({ recipientId, kind: 'mention' });

/**
 * The notification a queued notice becomes: no actor, no post or comment, nothing
 * that names the grievance in the clear (the preview is sealed at rest), kept off the change feed.
 * `grievance`: preview = the subject; `mention`: says the person was mentioned in an anonymous
 * grievance, then the subject.
 */
export function noticeNotification(recipientId: string, kind: GrievanceNotice['kind'], g: GrievanceItem) {
  return {
    recipientId,
    kind,
    actorId: null,
    postId: null,
    commentId: null,
    anonymous: true,
    sealPreview: seal,
    preview: kind === 'grievance' ? g.subject : `You were mentioned in an anonymous grievance: ${g.subject}`,
  } satisfies NewNotification;
}

/** The queue entry of one notice, written in the event's transaction. */
export function queuedNoticeWrite(grievanceId: string, n: GrievanceNotice, eventAt: Date): TransactItem {
  const id = newId(); // random: the delivery order follows it, not the events'
  return QueuedNotice.put({
    shard: randomInt(GRIEVANCE_NOTICE_SHARDS),
    eventAt: eventAt.toISOString(),
    id,
    grievanceId,
    kind: n.kind,
    recipientSeal: seal(n.recipientId, sealContexts.noticeRecipient(grievanceId, id)),
  });
}

/** Takes a notice off its queue, once (overlapping batches deliver it once). */
export function dequeueWrite(q: QueuedNoticeItem): TransactItem {
  // Notices queued before the shard and event time were stored name them in their key only.
  const { shard, eventAt } = q.eventAt === undefined ? grievanceNoticeKeyParts(q, q.id) : q;
  return QueuedNotice.remove([shard, eventAt, q.id], PRESENT);
}

/** Opens a queued notice's recipient; null when the seal does not open. */
export const recipientOf = (q: QueuedNoticeItem): string | null =>
  unseal(q.recipientSeal, sealContexts.noticeRecipient(q.grievanceId, q.id));

/** Commits an event's `items` and queues its notices, in one transaction. */
export async function transactWithNotices(
  items: TransactItem[],
  grievanceId: string,
  notices: GrievanceNotice[],
  eventAt: Date,
): Promise<void> {
  await transact([...items, ...notices.map((n) => queuedNoticeWrite(grievanceId, n, eventAt))]);
}
