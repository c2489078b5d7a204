import type { LegacyForm } from '../migrations/stored-form.ts';

/** Older stored forms of the notifications area's entities (CHANGELOG.md, 0.2.0). */
export const notificationLegacyForms: LegacyForm[] = [
  {
    entity: 'NotificationCounter',
    matches: (i) => i.entity === undefined && i.pk.startsWith('NOTIF#') && i.sk === 'COUNT',
    change: 'unread counters carry their entity name (they were written by ADD without one)',
  },
];
