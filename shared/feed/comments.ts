import { newSortableId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { forbidden, invalid, notFound } from '../errors.ts';
import { type MentionView, mentionIn } from '../people/person-views.ts';
import { getUsers } from '../people/users.ts';
import { Comment, type CommentItem, CommentVote, type PostItem, PostStats, ReplyNotice } from './entities.ts';
import { withoutErasing } from './erasing-mentions.ts';
import { readersAmong } from './may-read.ts';
import { looksLikeId } from './model.ts';
import { notifyComment, notifyCommentMentions } from './notify.ts';
import { isPrivileged, mentionable, resolveMentions, type Viewer } from './people.ts';
import { postOpenCheck, readablePost } from './posts.ts';
import { replyNotice } from './reply-notices.ts';
import { scoreWrites, transactScored } from './scores.ts';
import { mentionIds } from './text.ts';

/**
 * Comments: threads one level deep, a reply to a reply folds into its thread; like and
 * dislike votes. Counters (the post's commentCount, a thread's replyCount, vote counts) move in the
 * transaction of the change.
 */
export interface CommentView {
  id: string;
  postId: string;
  parentId: string | null;
  content: string;
  mentions: MentionView[];
  author: MentionView;
  likeCount: number;
  dislikeCount: number;
  viewerVote: 'like' | 'dislike' | null;
  replyCount: number;
  createdAt: string;
  editedAt: string | null;
}

/** A comment and its post as the viewer may see them (404 when either is missing or hidden from them). */
export async function readableComment(
  viewer: Viewer,
  commentId: string,
): Promise<{ comment: CommentItem; post: PostItem }> {
  const comment = looksLikeId(commentId) ? await Comment.get({ id: commentId }, { consistent: true }) : undefined;
  if (!comment || (comment.hidden && !isPrivileged(viewer, comment.authorId))) throw notFound('No such comment.');
  const post = await readablePost(viewer, comment.postId, true).catch(() => {
    throw notFound('No such comment.');
  });
  return { comment, post };
}

/** Views for one reader: one batch read of people and the reader's votes, whatever the page holds. */
export async function commentViews(
  viewer: Viewer,
  comments: CommentItem[],
  consistent = false,
): Promise<CommentView[]> {
  if (comments.length === 0) return [];
  const votes = await CommentVote.getMany(
    comments.map((c) => ({ commentId: c.id, userId: viewer.userId })),
    { consistent },
  );
  const users = await getUsers(comments.flatMap((c) => [c.authorId, ...mentionIds(c.content)]));
  return comments.map((c, i) => ({
    id: c.id,
    postId: c.postId,
    parentId: c.parentId,
    content: c.content,
    mentions: resolveMentions(mentionIds(c.content), users),
    author: mentionIn(users, c.authorId),
    likeCount: Math.max(0, c.likeCount ?? 0),
    dislikeCount: Math.max(0, c.dislikeCount ?? 0),
    viewerVote: votes[i]?.vote ?? null,
    replyCount: c.parentId ? 0 : Math.max(0, c.replyCount ?? 0),
    createdAt: c.createdAt,
    editedAt: c.editedAt,
  }));
}

/**
 * Moves a post's comment count (and who moved it last, for the change feed), in the transaction of the
 * comments it counts: one expression for adding a comment and deleting one (with its replies).
 */
const commentCountMove = (postId: string, by: number, actorId: string) =>
  PostStats.update(
    { postId },
    {
      UpdateExpression: 'SET actorId = :a ADD commentCount :by',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':by': by, ':a': actorId },
    },
  );

/**
 * Hides or shows a comment again (moderation): a hidden comment leaves its post's or thread's list (its
 * index attributes go) and is 404 to all but its author and super admins. Made by no person's hand in
 * the change feed, so nobody learns who asked for it.
 */
export async function setCommentHidden(commentId: string, hidden: boolean): Promise<CommentItem> {
  return retryOnConflict(async () => {
    const before = looksLikeId(commentId) ? await Comment.get({ id: commentId }, { consistent: true }) : undefined;
    if (!before) throw notFound('No such comment.');
    if (!!before.hidden === hidden) return before;
    const after: CommentItem = { ...before, hidden };
    await transact([Comment.change(before, after, { ConditionExpression: 'attribute_exists(pk)' })]);
    return after;
  });
}

export async function createComment(
  caller: Viewer,
  postId: string,
  content: string,
  parentId: string | undefined,
): Promise<CommentItem> {
  const post = await readablePost(caller, postId, true);
  let top: CommentItem | undefined;
  if (parentId !== undefined) {
    const parent = looksLikeId(parentId) ? await Comment.get({ id: parentId }, { consistent: true }) : undefined;
    top = parent?.parentId ? await Comment.get({ id: parent.parentId }, { consistent: true }) : parent;
    // A hidden comment (moderation) takes no replies from those it is hidden from.
    const hiddenFromCaller = [parent, top].some((c) => c?.hidden && !isPrivileged(caller, c.authorId));
    if (!top || top.postId !== postId || hiddenFromCaller) throw invalid(['parentId: no such comment on this post']);
  }
  content = await withoutErasing(content);
  const tokens = mentionIds(content);
  const users = await getUsers(tokens);
  const mentioned = tokens.filter((id) => mentionable(users.get(id)));
  // On a targeted post only its readers are told (docs/audiences.md).
  const told = post.audience ? [...(await readersAmong(post.id, mentioned))] : mentioned;
  const now = new Date();
  const id = newSortableId(now);
  const comment = Comment.item({
    id,
    postId,
    parentId: top?.id ?? null,
    authorId: caller.userId,
    content,
    mentionedIds: mentioned,
    likeCount: 0,
    dislikeCount: 0,
    replyCount: 0,
    createdAt: now.toISOString(),
    editedAt: null,
    actorId: caller.userId,
    ...(post.audience ? { targeted: true } : {}),
  });
  const writes: TransactItem[] = [
    Comment.create(comment),
    commentCountMove(postId, 1, caller.userId),
    postOpenCheck(postId, isPrivileged(caller, post.authorId)),
    ...(post.authorId !== caller.userId
      ? scoreWrites([{ userId: post.authorId, at: comment.createdAt, comments: 1 }], caller.userId)
      : []),
  ];
  if (top) {
    writes.push(
      Comment.update(
        { id: top.id },
        {
          UpdateExpression: 'SET actorId = :a ADD replyCount :one, repliers :me',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1, ':a': caller.userId, ':me': new Set([caller.userId]) },
        },
      ),
      // The thread may have as many repliers as the company has people: the feed fan-out tells them.
      ReplyNotice.create(replyNotice(comment, told, [top.authorId, ...(top.repliers ?? [])])),
    );
  }
  await transactScored(writes).catch((err) => {
    throw isConditionFailure(err) ? notFound('No such post.') : err;
  });
  if (!top) await notifyComment(post, comment, told);
  return comment;
}

export async function updateComment(caller: Viewer, commentId: string, content: string): Promise<CommentItem> {
  const { comment, post } = await readableComment(caller, commentId);
  if (comment.authorId !== caller.userId) throw forbidden('Only the author can edit a comment.');
  content = await withoutErasing(content);
  const tokens = mentionIds(content);
  const users = await getUsers(tokens);
  const mentioned = tokens.filter((id) => mentionable(users.get(id)));
  const now = new Date().toISOString();
  const mentionedIds = [...new Set([...(comment.mentionedIds ?? []), ...mentioned])];
  try {
    await transact([
      Comment.update(
        { id: commentId },
        {
          UpdateExpression: 'SET content = :c, editedAt = :now, mentionedIds = :m, actorId = :a',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':c': content, ':now': now, ':m': mentionedIds, ':a': caller.userId },
        },
      ),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('No such comment.');
    throw err;
  }
  const edited = { ...comment, content, editedAt: now, mentionedIds, actorId: caller.userId };
  const fresh = mentioned.filter((id) => !(comment.mentionedIds ?? []).includes(id));
  await notifyCommentMentions(post, edited, post.audience ? [...(await readersAmong(post.id, fresh))] : fresh);
  return edited;
}

/**
 * Deletes a comment (its author, the post's author or a super admin). A top-level comment takes its
 * thread with it: the post's commentCount drops by the replies too (they are no longer reachable).
 */
export async function deleteComment(caller: Viewer, commentId: string): Promise<void> {
  const { comment, post } = await readableComment(caller, commentId);
  if (comment.authorId !== caller.userId && !isPrivileged(caller, post.authorId))
    throw forbidden('You cannot delete this comment.');
  const removed = 1 + (comment.parentId ? 0 : Math.max(0, comment.replyCount ?? 0));
  const writes: TransactItem[] = [
    Comment.remove(
      { id: commentId },
      {
        ConditionExpression: 'replyCount = :seen',
        ExpressionAttributeValues: { ':seen': comment.replyCount ?? 0 },
      },
    ),
    commentCountMove(comment.postId, -removed, caller.userId),
    ...(comment.authorId !== post.authorId
      ? scoreWrites([{ userId: post.authorId, at: comment.createdAt, comments: -1 }], caller.userId)
      : []),
  ];
  if (comment.parentId) {
    // A reply's notice not sent yet stops with it (its next page's write finds no notice).
    writes.push(ReplyNotice.remove({ commentId }));
    const top = await Comment.get({ id: comment.parentId }, { consistent: true });
    if (top) {
      writes.push(
        Comment.update(
          { id: top.id },
          {
            UpdateExpression: 'SET actorId = :a ADD replyCount :d',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':d': -1, ':a': caller.userId },
          },
        ),
      );
    }
  }
  try {
    await transactScored(writes);
  } catch (err) {
    // A reply arrived meanwhile (or it went already): a second attempt reads the thread again.
    if (!isConditionFailure(err)) throw err;
    const still = await Comment.get({ id: commentId }, { consistent: true });
    if (!still) return;
    return deleteComment(caller, commentId);
  }
}

/** Comment votes: the vote already held is taken back; a different one switches. */
export async function voteOnComment(caller: Viewer, commentId: string, vote: 'like' | 'dislike') {
  return retryOnConflict(async () => {
    const { comment, post } = await readableComment(caller, commentId);
    const current = await CommentVote.get({ commentId, userId: caller.userId }, { consistent: true });
    const held = current?.vote ?? null;
    const next = held === vote ? null : vote;
    const field = (v: 'like' | 'dislike') => (v === 'like' ? 'likeCount' : 'dislikeCount');
    const adds = [...(next ? [`${field(next)} :one`] : []), ...(held ? [`${field(held)} :minus`] : [])];
    const heldCondition = held
      ? { ConditionExpression: 'vote = :held', ExpressionAttributeValues: { ':held': held } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    await transact([
      next
        ? CommentVote.put(
            { commentId, postId: comment.postId, userId: caller.userId, vote: next, actorId: caller.userId },
            heldCondition,
          )
        : CommentVote.remove({ commentId, userId: caller.userId }, heldCondition),
      Comment.update(
        { id: commentId },
        {
          UpdateExpression: `SET actorId = :a ADD ${adds.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':a': caller.userId,
            ...(next ? { ':one': 1 } : {}),
            ...(held ? { ':minus': -1 } : {}),
          },
        },
      ),
      postOpenCheck(comment.postId, isPrivileged(caller, post.authorId)),
    ]);
    const after = await Comment.get({ id: commentId }, { consistent: true });
    return {
      commentId,
      likeCount: Math.max(0, after?.likeCount ?? 0),
      dislikeCount: Math.max(0, after?.dislikeCount ?? 0),
      viewerVote: next,
    };
  });
}

/** A post's top-level comments, oldest first: one Query, then the views' batch reads. */
export async function listComments(viewer: Viewer, postId: string, limit: number, cursor: string | undefined) {
  await readablePost(viewer, postId);
  const found = await Comment.query({ index: 'topLevel', key: { postId } }, page({ limit, cursor }));
  return { items: await commentViews(viewer, found.items), nextCursor: found.nextCursor };
}

/** A thread's replies, oldest first. The id may be a reply: its thread is listed. */
export async function listReplies(viewer: Viewer, commentId: string, limit: number, cursor: string | undefined) {
  const { comment } = await readableComment(viewer, commentId);
  const topId = comment.parentId ?? comment.id;
  const found = await Comment.query({ index: 'replies', key: { parentId: topId } }, page({ limit, cursor }));
  return { items: await commentViews(viewer, found.items), nextCursor: found.nextCursor };
}
