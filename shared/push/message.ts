import type { PushMessage } from '../transports/push.ts';
import type { NotificationKind } from './notification-kinds.ts';

export interface PushableNotification {
  recipientId: string;
  kind: NotificationKind;
  actorId: string | null;
  postId?: string | null;
  preview: string;
}

const TITLES: Partial<Record<NotificationKind, (actor: string | null) => string>> = {
  mention: (a) => (a ? `${a} mentioned you` : 'You were mentioned'),
  comment: (a) => (a ? `${a} commented on your post` : 'New comment on your post'),
  reply: (a) => (a ? `${a} replied to a comment` : 'New reply to a comment'),
  reaction: (a) => (a ? `${a} reacted to your post` : 'New reaction to your post'),
  recognition: (a) => (a ? `${a} recognised you` : 'You were recognised'),
  poll_closed: () => 'A poll has closed',
  must_read: () => 'Please acknowledge an announcement',
  survey: () => 'A survey is waiting for your answer',
};

/** Title, body, link and kind of one push (`/feed#post-<id>` opens the post, `/feed` the feed). */
export function pushMessageFor(n: PushableNotification, actorName: string | null): PushMessage {
  const title = TITLES[n.kind]?.(actorName) ?? 'New notification';
  return { title, body: n.preview || title, link: n.postId ? `/feed#post-${n.postId}` : '/feed', kind: n.kind };
}
