import { atRevision } from '../db/entity.ts';
import { newSortableId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { failedConditions, isConditionFailure, retryOnConflict, transact } from '../db/table.ts';
import { conflict, DomainError, invalid, notFound } from '../errors.ts';
import { notify, previewOf } from '../notifications/notifications.ts';
import { logger } from '../observability/logger.ts';
import { User } from '../people/entities.ts';
import { Post, type PostItem, ScheduledPost, type ScheduledPostItem } from './entities.ts';
import { looksLikeId } from './model.ts';
import type { Viewer } from './people.ts';
import { postViews } from './post-view.ts';
import { createPost, newPostFrom, type PostInput } from './posts.ts';

/**
 * Posts scheduled for later (docs/scheduled-posts.md). `POST /posts` with `publishAt` keeps the post's
 * input, checked as a post written at that moment would be, hidden from everyone but its author; the
 * publishing schedule writes it through `createPost` at its moment, with the id it was given, so from
 * then on it is exactly a post written then: feeds, counts, mentions, notifications, stream events,
 * the website queue.
 */

/** How far ahead a post may be scheduled. */
export const SCHEDULE_AHEAD_MS = 365 * 86_400_000;

function momentOf(publishAt: string, now = Date.now()): Date {
  const at = Date.parse(publishAt);
  if (!(at > now)) throw invalid(['publishAt: must be in the future']);
  if (at > now + SCHEDULE_AHEAD_MS) throw invalid(['publishAt: at most a year ahead']);
  return new Date(at);
}

/** What is kept of the input: what the post will be made of (documents as their verified references). */
function keptInput(input: PostInput, post: PostItem): ScheduledPostItem['input'] {
  return {
    ...(input.content !== undefined ? { content: input.content } : {}),
    images: post.images,
    videos: post.videos,
    documents: post.documents,
    ...(input.poll ? { poll: input.poll } : {}),
    ...(input.recognition ? { recognition: input.recognition } : {}),
    isAnnouncement: post.isAnnouncement,
    ...(post.acknowledgement ? { acknowledgement: { required: true, dueAt: post.acknowledgement.dueAt } } : {}),
    ...(post.audience ? { audience: post.audience } : {}),
  };
}

/** Schedules a post: checked as if written at `publishAt`, its attachments verified now. */
export async function schedulePost(caller: Viewer, input: PostInput, publishAt: string): Promise<ScheduledPostItem> {
  const at = momentOf(publishAt);
  const id = newSortableId(at);
  const { post, checks } = await newPostFrom(caller, input, at, id);
  const now = new Date().toISOString();
  const item = ScheduledPost.item({
    id,
    authorId: caller.userId,
    input: keptInput(input, post),
    publishAt: at.toISOString(),
    createdAt: now,
    updatedAt: now,
    failure: null,
    rev: 0,
  });
  await transact([ScheduledPost.create(item), ...checks]);
  return item;
}

/** The caller's scheduled post of this id, or undefined (anybody else's is not theirs to know of). */
export async function ownScheduledPost(caller: Viewer, id: string): Promise<ScheduledPostItem | undefined> {
  const item = looksLikeId(id) ? await ScheduledPost.get({ id }, { consistent: true }) : undefined;
  return item?.authorId === caller.userId ? item : undefined;
}

/**
 * Replaces a scheduled post's body (PATCH, a full replace) until it is published. Its moment stays:
 * moving it is deleting it and scheduling it again (its id sorts by its moment).
 */
export async function updateScheduledPost(
  caller: Viewer,
  before: ScheduledPostItem,
  input: PostInput,
  publishAt: string | undefined,
): Promise<ScheduledPostItem> {
  if (publishAt !== undefined && Date.parse(publishAt) !== Date.parse(before.publishAt))
    throw invalid(['publishAt: a scheduled post keeps its moment; delete it and schedule it again']);
  if (before.failure) throw conflict('This post could not be published; delete it and write it again.');
  // A PATCH body has no acknowledgement (it is set at creation only): a scheduled must-read stays one,
  // an announcement with it, as a published post's requirement stays through its edits.
  const ack = before.input.acknowledgement;
  // Its audience too (docs/audiences.md): set when scheduled, frozen when it publishes.
  const audience = before.input.audience;
  const kept: PostInput = {
    ...(ack
      ? { ...input, isAnnouncement: true, acknowledgement: { required: true, dueAt: ack.dueAt ?? null } }
      : input),
    ...(audience ? { audience } : {}),
  };
  const { post, checks } = await newPostFrom(caller, kept, new Date(before.publishAt), before.id);
  const after: ScheduledPostItem = {
    ...before,
    input: keptInput(kept, post),
    updatedAt: new Date().toISOString(),
    rev: before.rev + 1,
  };
  try {
    await transact([ScheduledPost.change(before, after, atRevision(before.rev)), ...checks]);
  } catch (err) {
    if (failedConditions(err).includes(0)) throw notFound('No such post.'); // published or deleted meanwhile
    throw err;
  }
  return after;
}

/** Deletes a scheduled post before its moment (after it, the post is deleted as any post). */
export async function deleteScheduledPost(before: ScheduledPostItem): Promise<void> {
  try {
    await transact([ScheduledPost.remove({ id: before.id }, atRevision(before.rev))]);
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('No such post.');
    throw err;
  }
}

/** The caller's scheduled posts, soonest first, one Query a page. */
export async function listScheduledPosts(caller: Viewer, limit: number, cursor: string | undefined) {
  return ScheduledPost.query({ index: 'byAuthor', key: { authorId: caller.userId } }, page({ limit, cursor }));
}

/**
 * The post a scheduled one will be, for its author's eyes: built from its input without a read (its
 * counters are those of a new post; poll options get their ids when published).
 */
export function scheduledAsPost(s: ScheduledPostItem): PostItem {
  const i = s.input;
  return Post.item({
    id: s.id,
    authorId: s.authorId,
    content: i.content ?? '',
    tags: [],
    images: i.images ?? [],
    videos: i.videos ?? [],
    documents: i.documents ?? [],
    poll: i.poll
      ? {
          question: i.poll.question,
          description: i.poll.description ?? '',
          options: i.poll.options.map((text, n) => ({ id: `option-${n + 1}`, text })),
          closesAt: new Date(Date.parse(i.poll.closesAt)).toISOString(),
          closedAt: null,
        }
      : null,
    recognition: i.recognition
      ? {
          recipientId: i.recognition.recipientId,
          category: i.recognition.category,
          message: i.recognition.message ?? '',
        }
      : null,
    isAnnouncement: !!i.isAnnouncement,
    ...(i.acknowledgement ? { acknowledgement: { required: true, dueAt: i.acknowledgement.dueAt ?? null } } : {}),
    ...(i.audience ? { audience: i.audience } : {}),
    hidden: false,
    sharedPostId: null,
    mentionedIds: [],
    createdAt: s.publishAt,
    updatedAt: s.updatedAt,
    editedAt: null,
    actorId: s.authorId,
    rev: 0,
  });
}

// ------------------------------------------------------------------------------------------ publishing

/**
 * Publishes every scheduled post whose moment has come (the schedule runs each minute): each through
 * `createPost` at its moment, the schedule removed in the post's own transaction, so a post is
 * published once however many runs overlap. One that can no longer be a post is kept with its reason.
 */
export async function publishDuePosts(now = new Date()): Promise<number> {
  let published = 0;
  const unexpected: unknown[] = [];
  for (;;) {
    const due = await ScheduledPost.query(
      { index: 'due', key: {}, skBefore: `${now.toISOString()}#~` },
      page({ limit: 25 }),
    );
    if (due.items.length === 0) break;
    let progressed = false;
    for (const item of due.items) {
      // One post's unexpected failure (a dependency down) never holds up the others: it stays due
      // for the next run, and the run fails afterwards so the background-failure alarm sees it.
      const outcome = await publishOne(item).catch((err: unknown) => {
        logger.error('scheduled post not published, to be retried', { postId: item.id, err });
        unexpected.push(err);
        return 'skipped' as const;
      });
      if (outcome !== 'skipped') progressed = true;
      if (outcome === 'published') published++;
    }
    // A page that moved nothing (another run holds it, or it failed) is left to the next run.
    if (!progressed || !due.nextCursor) break;
  }
  if (unexpected.length)
    throw new AggregateError(unexpected, `${unexpected.length} scheduled post(s) not published, to be retried`);
  return published;
}

/** What makes a post never publishable: its author's rights or its content, as they stand at its moment. */
const PERMANENT: ReadonlySet<DomainError['kind']> = new Set(['invalid', 'forbidden', 'not-found']);

async function publishOne(item: ScheduledPostItem): Promise<'published' | 'failed' | 'skipped'> {
  const author = await User.get({ id: item.authorId }, { consistent: true });
  if (author?.status !== 'active') return fail(item, 'Its author is no longer an active member.');
  try {
    await createPost({ userId: author.id, role: author.role }, item.input, {
      id: item.id,
      at: new Date(item.publishAt),
      writes: [ScheduledPost.remove({ id: item.id }, atRevision(item.rev))],
    });
    return 'published';
  } catch (err) {
    // Published by another run, or edited meanwhile (the next run publishes the edit).
    if (isConditionFailure(err) && !(err instanceof DomainError)) return 'skipped';
    // Refused as a post written at its moment would be (invalid, or its author may no longer write it:
    // a must-read by a demoted super admin): kept with its reason, its author told.
    if (err instanceof DomainError && PERMANENT.has(err.kind)) return fail(item, err.message);
    throw err;
  }
}

async function fail(item: ScheduledPostItem, failure: string): Promise<'failed' | 'skipped'> {
  logger.info('scheduled post not published', { postId: item.id, failure });
  return retryOnConflict(
    async () => {
      await transact([
        ScheduledPost.change(
          item,
          { ...item, failure, updatedAt: new Date().toISOString(), rev: item.rev + 1 },
          atRevision(item.rev),
        ),
      ]);
      await notify([
        {
          recipientId: item.authorId,
          kind: 'post_not_published',
          actorId: null,
          postId: item.id,
          preview: previewOf(`Your scheduled post could not be published: ${failure}`),
        },
      ]);
      return 'failed' as const;
    },
    { attempts: 1, fallback: () => 'skipped' as const },
  );
}

/**
 * Scheduled posts as their author reads them: the Posts they will be, each with its moment (and
 * failure), in the views' fixed batch reads for the whole page (not a read per post).
 */
export async function scheduledViews(caller: Viewer, items: ScheduledPostItem[]) {
  const views = await postViews(caller, items.map(scheduledAsPost));
  return views.map((view, n) => {
    const s = items[n];
    return { ...view, publishAt: s.publishAt, ...(s.failure ? { scheduleFailure: s.failure } : {}) };
  });
}

/** A scheduled post as its author reads it: the Post it will be, with its moment (and failure). */
export async function scheduledView(caller: Viewer, s: ScheduledPostItem) {
  return (await scheduledViews(caller, [s]))[0];
}
