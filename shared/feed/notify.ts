import type { NameSpan } from '../notifications/entities.ts';
import { type NewNotification, notify } from '../notifications/notifications.ts';
import { getUsers } from '../people/users.ts';
import type { CommentItem, PostItem } from './entities.ts';
import { mentionNames } from './people.ts';
import { mentionIds, renderMentionSpans } from './text.ts';

/**
 * Who the feed tells what. Each person gets at most one notification per change;
 * nobody is told of their own action (notify() drops those). Every feed notification carries the
 * post; comment, reply and comment-mention ones also the comment.
 */

/** A notification's preview and where it holds people's names (NotificationContent.names). */
export interface Preview {
  preview: string;
  names?: NameSpan[];
}

/** A body as a person reads it: tokens become names (with their spans). */
async function readable(text: string): Promise<Preview> {
  const ids = mentionIds(text);
  if (!ids.length) return { preview: text };
  const out = renderMentionSpans(text, mentionNames(ids, await getUsers(ids)));
  return { preview: out.text, names: out.names };
}

export const postPreview = async (p: PostItem): Promise<Preview> => {
  const body = await readable(p.content);
  const trimmed = body.preview.trim();
  if (trimmed) {
    // Trimming the start moves every span by what it took.
    const cut = body.preview.length - body.preview.trimStart().length;
    return { preview: trimmed, names: body.names?.map((n) => ({ ...n, at: n.at - cut })) };
  }
  return { preview: p.poll?.question || p.recognition?.message || 'a post' };
};

/** A new post: its recipient is told of the recognition, the people it mentions of the mention. */
export async function notifyNewPost(p: PostItem, mentioned: string[]): Promise<void> {
  const preview = await postPreview(p);
  const list: NewNotification[] = [];
  const recipient = p.recognition?.recipientId;
  if (recipient)
    list.push({
      recipientId: recipient,
      kind: 'recognition',
      actorId: p.authorId,
      postId: p.id,
      ...(p.recognition?.message ? { preview: p.recognition.message } : preview),
    });
  for (const id of mentioned) {
    if (id !== recipient)
      list.push({ recipientId: id, kind: 'mention', actorId: p.authorId, postId: p.id, ...preview });
  }
  await notify(list);
}

/** An edited post: only the people mentioned now who were not before. */
export async function notifyNewMentions(p: PostItem, newlyMentioned: string[], actorId: string): Promise<void> {
  if (newlyMentioned.length === 0) return;
  const preview = await postPreview(p);
  await notify(
    newlyMentioned.map((id) => ({ recipientId: id, kind: 'mention' as const, actorId, postId: p.id, ...preview })),
  );
}

/** Once per reacting person per post (the caller makes sure of the once). */
export async function notifyReaction(p: PostItem, reactorId: string): Promise<void> {
  await notify([
    { recipientId: p.authorId, kind: 'reaction', actorId: reactorId, postId: p.id, ...(await postPreview(p)) },
  ]);
}

/**
 * Who a new comment tells, each once and never its author: people it mentions get `mention`; on a
 * reply, the thread's starter and earlier repliers get `reply`; the post's author gets `comment`
 * unless already told otherwise. Pure, so every attempt of a reply's notice computes the same pages.
 */
export function commentRecipients(
  postAuthorId: string,
  commentAuthorId: string,
  mentioned: string[],
  threadPeople: string[],
): { recipientId: string; kind: 'mention' | 'reply' | 'comment' }[] {
  const told = new Set<string>([commentAuthorId]);
  const list: { recipientId: string; kind: 'mention' | 'reply' | 'comment' }[] = [];
  const tell = (recipientId: string, kind: 'mention' | 'reply' | 'comment') => {
    if (told.has(recipientId)) return;
    told.add(recipientId);
    list.push({ recipientId, kind });
  };
  for (const id of mentioned) tell(id, 'mention');
  for (const id of threadPeople) tell(id, 'reply');
  tell(postAuthorId, 'comment');
  return list;
}

/** The preview of a comment's notifications. */
export const commentPreview = (c: CommentItem) => readable(c.content);

/**
 * A new top-level comment: the people it mentions and the post's author (bounded by the comment's
 * length). A reply's thread may grow with the company: its notice is sent by the feed fan-out
 * (reply-notices.ts).
 */
export async function notifyComment(p: PostItem, c: CommentItem, mentioned: string[]): Promise<void> {
  const preview = await commentPreview(c);
  await notify(
    commentRecipients(p.authorId, c.authorId, mentioned, []).map(({ recipientId, kind }) => ({
      recipientId,
      kind,
      actorId: c.authorId,
      postId: p.id,
      commentId: c.id,
      ...preview,
    })),
  );
}

export async function notifyCommentMentions(p: PostItem, c: CommentItem, newlyMentioned: string[]): Promise<void> {
  if (newlyMentioned.length === 0) return;
  const preview = await readable(c.content);
  await notify(
    newlyMentioned.map((id) => ({
      recipientId: id,
      kind: 'mention' as const,
      actorId: c.authorId,
      postId: p.id,
      commentId: c.id,
      ...preview,
    })),
  );
}
