import { entity } from '../db/entity.ts';
import {
  grievanceBoardIndex,
  grievanceKey,
  grievanceNotificationRefKey,
  grievanceReaderRefKey,
  grievanceReplyKey,
} from '../db/keys.ts';
import type { NotificationRefItem, ReaderRefItem } from './erasure-refs.ts';
import type { GrievanceItem, ReplyItem } from './model.ts';

/**
 * The grievance channel's entities (docs/data-model.md, Grievances), each declared once. Every one is
 * `anon`: its items carry the ANON attribute that keeps them out of the change feed.
 */

type Filter = { status?: string; category?: string };
/** The four board filters a grievance is listed under: all, by status, by category, by both. */
const BOARD_FILTERS: ((g: Pick<GrievanceItem, 'status' | 'category'>) => Filter)[] = [
  () => ({}),
  (g) => ({ status: g.status }),
  (g) => ({ category: g.category }),
  (g) => ({ status: g.status, category: g.category }),
];

/** A grievance, on the board's four indexes (gsi1–gsi4, sk `<createdAt>#<id>`); a status move moves gsi2 and gsi4. */
export const Grievance = entity<GrievanceItem, [grievanceId: string]>({
  name: 'Grievance',
  key: grievanceKey,
  keyOf: (g) => [g.id],
  anon: true,
  indexes: BOARD_FILTERS.map((filterOf) => ({
    // The index depends only on which filters are set, so any grievance names it.
    index: grievanceBoardIndex(filterOf({ status: 'open', category: 'other' })).index,
    pk: (g) => grievanceBoardIndex(filterOf(g)).pk,
    sk: (g) => `${g.createdAt}#${g.id}`,
  })),
});

/** A reply on a grievance, in the grievance's partition. */
export const GrievanceReply = entity<ReplyItem, [grievanceId: string, replyId: string]>({
  name: 'GrievanceReply',
  key: grievanceReplyKey,
  keyOf: (r) => [r.grievanceId, r.id],
  anon: true,
});

/** What the retention sweep erases a person's read marker by (erasure-refs.ts): the reader, sealed. */
export const GrievanceReaderRef = entity<ReaderRefItem, [grievanceId: string, refId: string]>({
  name: 'GrievanceReaderRef',
  key: grievanceReaderRefKey,
  keyOf: (r) => [r.grievanceId, r.refId],
  anon: true,
});

/** What the retention sweep erases a notification about the grievance by: recipient and notification, sealed. */
export const GrievanceNotificationRef = entity<NotificationRefItem, [grievanceId: string, refId: string]>({
  name: 'GrievanceNotificationRef',
  key: grievanceNotificationRefKey,
  keyOf: (r) => [r.grievanceId, r.refId],
  anon: true,
});
