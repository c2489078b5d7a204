import type { Item, TransactItem } from '../db/table.ts';
import type { DataMigration } from '../migrations/migration.ts';
import type { LegacyForm } from '../migrations/stored-form.ts';
import { Notification, type NotificationContent } from './entities.ts';
import { sealedContent } from './notifications.ts';

/** Older stored forms of the notifications area's entities (CHANGELOG.md, 0.2.0). */
export const notificationLegacyForms: LegacyForm[] = [
  {
    entity: 'NotificationCounter',
    matches: (i) => i.entity === undefined && i.pk.startsWith('NOTIF#') && i.sk === 'COUNT',
    change: 'unread counters carry their entity name (they were written by ADD without one)',
  },
];

/**
 * A notification of 0.2.0 or earlier in the one form every notification has now: kind, actor,
 * references and preview sealed under the notification key, nothing in the clear that tells a
 * grievance notification from another (no `kind`, no `anon`). `openGrievancePreview` opens the
 * grievance previews 0.2.0 sealed under the grievance key (passed in: the notifications area holds
 * no grievance key); one that does not open becomes an empty preview. The update is conditioned on
 * the item still being in the old form.
 */
export function notificationSealWrites(item: Item, openGrievancePreview: (n: Item) => string | null): TransactItem[] {
  if (!Notification.is(item)) return [];
  const n = item;
  if (n.sealed !== undefined) return [];
  const content: NotificationContent = {
    kind: n.kind!,
    actorId: n.actorId ?? null,
    postId: n.postId ?? null,
    commentId: n.commentId ?? null,
    preview: n.sealedPreview ? (openGrievancePreview(item) ?? '') : (n.preview ?? ''),
    ...(n.anon ? { anonymous: true as const } : {}),
  };
  return [
    Notification.update(n, {
      UpdateExpression: 'SET sealed = :sealed REMOVE kind, actorId, postId, commentId, preview, sealedPreview, #anon',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(sealed)',
      ExpressionAttributeNames: { '#anon': 'anon' },
      ExpressionAttributeValues: { ':sealed': sealedContent(n.recipientId, n.id, content) },
    }),
  ];
}

export const notificationSealMigration = (openGrievancePreview: (n: Item) => string | null): DataMigration => ({
  id: '0005-notifications-sealed',
  description: 'Every notification in one form: its kind, actor, references and preview sealed',
  entities: ['Notification'],
  migrate: (item) => notificationSealWrites(item, openGrievancePreview),
});
