import { type TransactItem, transact } from '../db/table.ts';
import { type NewNotification, notificationWrites } from '../notifications/notifications.ts';
import { deliverPush } from '../push/delivery.ts';
import { seal, unseal } from './anonymity.ts';
import { type GrievanceItem, sealContexts } from './model.ts';

/**
 * Grievance notifications (decisions 2 and 8): no actor, no post or comment, nothing that names the
 * grievance in the clear (the preview is sealed at rest), and kept off the change feed (`anonymous`).
 */
const base = { actorId: null, postId: null, commentId: null, anonymous: true, sealPreview: seal } as const;

/** The person who raised `g`, recovered from its seal; null if the seal does not open (another secret). */
export const raiserOf = (g: GrievanceItem): string | null => unseal(g.raiserSeal, sealContexts.raiser(g.id));

/** Kind `grievance` to the raiser: preview = the subject. */
export const raiserNotice = (raiserId: string, g: GrievanceItem): NewNotification => ({
  ...base,
  recipientId: raiserId,
  kind: 'grievance',
  preview: g.subject,
});

/** Kind `mention`: says the person was mentioned in an anonymous grievance, then the subject. */
export const mentionNotice = (recipientId: string, g: GrievanceItem): NewNotification => ({
  ...base,
  recipientId,
  kind: 'mention',
  preview: `You were mentioned in an anonymous grievance: ${g.subject}`,
});

/**
 * Commits `items` and the notifications in one transaction, then pushes those of a push kind (a
 * grievance mention is a `mention`; kind `grievance` stays on the bell).
 */
export async function transactWithNotices(
  items: TransactItem[],
  notices: NewNotification[],
  at = new Date(),
): Promise<void> {
  await transact([...items, ...notices.flatMap((n) => notificationWrites(n, at).items)]);
  await deliverPush(notices);
}
