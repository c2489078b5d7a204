import { newId } from '../db/ids.ts';
import type { TransactItem } from '../db/table.ts';
import { type NewNotification, notificationWrites } from '../notifications/notifications.ts';
import { seal, unseal } from './anonymity.ts';
import {
  GrievanceNotificationRef,
  type GrievanceNotificationRefItem,
  GrievanceReaderRef,
  type GrievanceReaderRefItem,
} from './entities.ts';
import { sealContexts } from './model.ts';

/*
 * References that let the retention sweep erase what a grievance left in other people's items (a read
 * marker, a notification) without any item linking a person to the grievance in the clear: each lives
 * in the grievance's partition under a random id, carries no time, and holds the person (and the
 * notification id) sealed for this grievance and this reference.
 */

/** Written with a person's first read marker of the grievance. */
export function readerRefWrite(grievanceId: string, readerId: string): TransactItem {
  const refId = newId();
  return GrievanceReaderRef.put({
    grievanceId,
    refId,
    readerSeal: seal(readerId, sealContexts.readerRef(grievanceId, refId)),
  });
}

/**
 * The writes that record a notification about the grievance with its reference in one transaction:
 * only for notices queued by 0.2.0, delivered before their migration converted them. Notices queued
 * now write their reference with the event instead (notices.ts).
 */
export function notificationRecord(n: NewNotification, grievanceId: string, at: Date, mark?: string): TransactItem[] {
  const { id, items } = notificationWrites(n, at, undefined, mark);
  return [...items, notificationRefWrite(grievanceId, n.recipientId, id)];
}

/** The reference the retention sweep erases a person's notification about the grievance by. */
export function notificationRefWrite(grievanceId: string, recipientId: string, notificationId: string): TransactItem {
  const refId = newId();
  return GrievanceNotificationRef.put({
    grievanceId,
    refId,
    notificationSeal: seal(
      JSON.stringify([recipientId, notificationId]),
      sealContexts.notificationRef(grievanceId, refId),
    ),
  });
}

export const readerOf = (r: GrievanceReaderRefItem) =>
  unseal(r.readerSeal, sealContexts.readerRef(r.grievanceId, r.refId));

export function notificationOf(
  r: GrievanceNotificationRefItem,
): { recipientId: string; notificationId: string } | null {
  const text = unseal(r.notificationSeal, sealContexts.notificationRef(r.grievanceId, r.refId));
  if (!text) return null;
  const [recipientId, notificationId] = JSON.parse(text) as [string, string];
  return { recipientId, notificationId };
}
