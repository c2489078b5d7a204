import { type EntityItem, entity, shape } from '../db/entity.ts';
import type { PushPlatform } from '../transports/push.ts';

/** The push area's entities (docs/data-model.md, Live updates: push), each declared once. */

/** A registration, by the SHA-256 of its token; in its person's delivery index (gsi1, sparse) until the platform reports it dead. */
export const PushToken = entity({
  name: 'PushToken',
  fields: shape<{
    tokenHash: string;
    userId: string;
    platform: PushPlatform;
    userAgent: string | null;
    endpointArn: string | null;
    createdAt: string;
    updatedAt: string;
    /**
     * The key (token hash) of the session that registered it: push goes to the registration only while
     * that session is live and its person active (delivery.ts). Registrations written before this was
     * recorded lack it; delivery removes them.
     */
    sessionTokenHash: string;
    /** Set when the platform reported the endpoint dead; the item then leaves the delivery index. */
    disabledAt?: string;
    actorId: string;
  }>(),
  key: { pk: ['PUSHTOKEN', 'tokenHash'], sk: ['TOKEN'] },
  indexes: {
    /** A person's enabled registrations, oldest first. */
    byPerson: {
      index: 'gsi1',
      pk: ['PUSHTOKENS', 'userId'],
      sk: ['updatedAt', 'tokenHash'],
      when: (t) => !t.disabledAt,
    },
  },
  legacy: ['sessionTokenHash'],
});
export type PushTokenItem = EntityItem<typeof PushToken>;

/** A person's push preference (shared/push/preferences.ts); absent = push on. */
export const NotificationPrefs = entity({
  name: 'NotificationPrefs',
  fields: shape<{ userId: string; pushEnabled?: boolean; actorId: string; updatedAt: string }>(),
  key: { pk: ['USER', 'userId'], sk: ['NOTIF_PREFS'] },
});
