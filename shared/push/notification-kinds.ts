/**
 * The notification kinds, declared once: the domain's type, the API's enum and the push filter all
 * come from here, so a new kind cannot be added to one and missed by another. A module of its own so
 * that route declarations can use it without loading the notification store.
 */

/** The kinds that are pushed as well as shown on the bell. */
const PUSHED = [
  'mention',
  'comment',
  'reply',
  'reaction',
  'recognition',
  'poll_closed',
  'must_read',
  // Beyond the specification: a survey opened for the person, or reminds them (docs/surveys.md).
  'survey',
] as const;

/** Every kind; those after the pushed ones stay on the bell. */
export const NOTIFICATION_KINDS = [
  ...PUSHED,
  'meeting',
  'announcement',
  'grievance',
  'birthday',
  'birthday_wish',
  'birthday_thanks',
  // Beyond the specification: a moderator hid the person's post or comment (docs/moderation.md).
  'content_hidden',
  // Beyond the specification: the person's scheduled post could not be published (docs/scheduled-posts.md).
  'post_not_published',
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const PUSH_KINDS: ReadonlySet<NotificationKind> = new Set(PUSHED);
