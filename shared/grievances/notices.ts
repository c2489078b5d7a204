import { randomInt } from 'node:crypto';
import { env } from '../config/env.ts';
import { PRESENT } from '../db/entity.ts';
import { newId, newSortableId } from '../db/ids.ts';
import { type TransactItem, transact } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { seal, unseal } from './anonymity.ts';
import { type GrievanceItem, GrievanceNotice, type GrievanceNoticeItem } from './entities.ts';
import { notificationRefWrite } from './erasure-refs.ts';
import { noticeKeyParts } from './legacy-keys.ts';
import { sealContexts } from './model.ts';
import { GRIEVANCE_NOTICE_SHARDS } from './shards.ts';
import type { NoticeKind } from './vocabulary.ts';

/**
 * Who an event tells, and how: the raiser (kind `grievance`), a tagged person (kind `mention`), or
 * a super admin reminded of a deadline (kind `grievance`, its own preview). Each is queued with the
 * event as a `GrievanceNotice` and delivered by a later batch (`notice-delivery.ts`), never written to
 * the recipient's own items at the event's time (docs/data-model.md, Grievances: delivery apart from
 * the event).
 */
export interface NoticeRequest {
  recipientId: string;
  kind: NoticeKind;
  /** A reminder's own text; else the preview is made from the grievance at delivery. */
  preview?: string;
}

/** What a queued notice holds, sealed under the grievance key: nothing of it is in the clear. */
export interface NoticePayload {
  grievanceId: string;
  recipientId: string;
  kind: NoticeKind;
  preview?: string;
  /** The notification's id and time, chosen when queued, so that its erasure reference is written then. */
  notificationId: string;
  notifyAt: string;
}

/**
 * When notices are released. A notice's notification is dated `minDelay` plus a random share of
 * `jitter` after its event, and the notice is released at that time rounded up to `round`: the
 * delivery schedule's period deployed (a minute), so notices of events minutes apart are released
 * together and a delivery's time says little about which event caused it. Deployed, the raiser sees it
 * within 13 minutes of the event plus the schedule's minute. Locally (`npm start`, tests, the
 * conformance suite, which waits seconds for a notification) the same scheme in seconds.
 */
export interface NoticeTiming {
  minDelayMs: number;
  jitterMs: number;
  roundMs: number;
  /** How long a batch leaves released notices before reading them (transactions still committing). */
  settleMs: number;
}
const DEPLOYED: NoticeTiming = { minDelayMs: 120_000, jitterMs: 600_000, roundMs: 60_000, settleMs: 5_000 };
const LOCAL: NoticeTiming = { minDelayMs: 1_100, jitterMs: 400, roundMs: 500, settleMs: 250 };
export const noticeTiming = (): NoticeTiming => (env.runtime === 'local' ? LOCAL : DEPLOYED);
/** The latest a notice is released after its event. */
export const maxReleaseDelayMs = (t = noticeTiming()) => t.minDelayMs + t.jitterMs + t.roundMs;

/** The person who raised `g`, recovered from its seal; null if the seal does not open (another secret). */
export const raiserOf = (g: GrievanceItem): string | null => unseal(g.raiserSeal, sealContexts.raiser(g.id));

export const raiserNotice = (raiserId: string): NoticeRequest => ({ recipientId: raiserId, kind: 'grievance' });
export const mentionNotice = (recipientId: string): NoticeRequest => ({ recipientId, kind: 'mention' });

/**
 * The notification a notice becomes: no actor, no post or comment, nothing that names the grievance
 * (the notification module seals all of it, like every notification), never published on the
 * change feed. `grievance`: preview = the subject (or the reminder's text); `mention`: says the person
 * was mentioned in an anonymous grievance, then the subject.
 */
export function noticeNotification(p: Pick<NoticePayload, 'recipientId' | 'kind' | 'preview'>, g: GrievanceItem) {
  return {
    recipientId: p.recipientId,
    kind: p.kind,
    actorId: null,
    postId: null,
    commentId: null,
    anonymous: true,
    preview:
      p.preview ?? (p.kind === 'grievance' ? g.subject : `You were mentioned in an anonymous grievance: ${g.subject}`),
  } satisfies NewNotification;
}

/**
 * The queue entry of one notice and the erasure reference of the notification it will become, written
 * in the event's transaction: the reference lives in the grievance's partition and names the person
 * only sealed, and the notification itself is written by a later batch that touches nothing of the
 * grievance, so no transaction holds both a person's item and the grievance's.
 */
export function queuedNoticeWrites(grievanceId: string, n: NoticeRequest, eventAt: Date): TransactItem[] {
  const t = noticeTiming();
  const notifyAt = new Date(eventAt.getTime() + t.minDelayMs + randomInt(t.jitterMs));
  const releaseAt = new Date(Math.ceil(notifyAt.getTime() / t.roundMs) * t.roundMs).toISOString();
  const id = newId(); // random: the delivery order follows it, not the events'
  const payload: NoticePayload = {
    grievanceId,
    recipientId: n.recipientId,
    kind: n.kind,
    ...(n.preview === undefined ? {} : { preview: n.preview }),
    notificationId: newSortableId(notifyAt),
    notifyAt: notifyAt.toISOString(),
  };
  return [
    GrievanceNotice.put({
      shard: randomInt(GRIEVANCE_NOTICE_SHARDS),
      releaseAt,
      id,
      sealed: seal(JSON.stringify(payload), sealContexts.notice(id)),
    }),
    notificationRefWrite(grievanceId, n.recipientId, payload.notificationId),
  ];
}

/**
 * What a queued notice says, whichever its form; null when its seal does not open. A 0.2.0 notice has
 * no notification chosen yet (`notificationId` empty).
 */
export function openNotice(q: GrievanceNoticeItem): NoticePayload | null {
  if (q.sealed !== undefined) {
    const text = unseal(q.sealed, sealContexts.notice(q.id));
    return text === null ? null : (JSON.parse(text) as NoticePayload);
  }
  const recipientId = unseal(q.recipientSeal, sealContexts.noticeRecipient(q.grievanceId ?? '', q.id));
  if (!recipientId || !q.grievanceId || !q.kind) return null;
  return { grievanceId: q.grievanceId, recipientId, kind: q.kind, notificationId: '', notifyAt: '' };
}

/** Where a notice is queued: its shard, time and id (read from its key when it was queued before it stored them). */
export function noticeAddress(q: GrievanceNoticeItem): { shard: number; releaseAt: string; id: string } {
  const { shard, releaseAt } =
    q.shard === undefined || q.releaseAt === undefined
      ? noticeKeyParts(q, q.id)
      : { shard: q.shard, releaseAt: q.releaseAt };
  return { shard, releaseAt, id: q.id };
}

/** Takes a notice off its queue (conditionally, so that overlapping runs act once). */
export function dequeueWrite(q: GrievanceNoticeItem): TransactItem {
  return GrievanceNotice.remove(noticeAddress(q), PRESENT);
}

/** Commits an event's `items` and queues its notices, in one transaction. */
export async function transactWithNotices(
  items: TransactItem[],
  grievanceId: string,
  notices: NoticeRequest[],
  eventAt: Date,
): Promise<void> {
  await transact([...items, ...notices.flatMap((n) => queuedNoticeWrites(grievanceId, n, eventAt))]);
}
