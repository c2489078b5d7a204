import { randomBytes } from 'node:crypto';
import type { Rule } from '../audiences/rule.ts';
import { newSortableId } from '../db/ids.ts';
import { type Item, isConditionFailure, retryOnConflict, type TransactItem, transact, write } from '../db/table.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { User } from '../people/entities.ts';
import { postCountWrites } from '../people/post-count.ts';
import { getUsers } from '../people/users.ts';
import { afterEdit, afterHiding, getWebsiteEntry, newCandidate, websiteWrites } from '../website/records.ts';
import { audienceWrites } from './audience.ts';
import { resolveAudience } from './audience-check.ts';
import { Post, type PostAudienceInput, type PostItem, PostListEntry, PostStats } from './entities.ts';
import { withoutErasing } from './erasing-mentions.ts';
import { listsOf, listWrites } from './lists.ts';
import { mayRead } from './may-read.ts';
import { type DocumentRef, looksLikeId, type PollItem, type RecognitionCategory, zeroReactions } from './model.ts';
import { type AcknowledgementInput, acknowledgementOf, mustReadWrites } from './must-read-model.ts';
import { notifyNewMentions, notifyNewPost } from './notify.ts';
import { isPrivileged, mentionable, type Viewer } from './people.ts';
import { scoreWrites, transactScored } from './scores.ts';
import { hashtags, mentionIds } from './text.ts';
import { resolveAttachments } from './uploads.ts';

export const EMPTY_POST_MESSAGE = 'Write something before posting.';

/** A post as a client sends it (create, and PATCH: the whole post). */
export interface PostInput {
  content?: string;
  images?: string[];
  videos?: string[];
  documents?: { url: string; name: string; mimeType: string; sizeBytes: number }[];
  poll?: { question: string; description?: string; options: string[]; closesAt: string };
  recognition?: { recipientId: string; category: RecognitionCategory; message?: string };
  isAnnouncement?: boolean;
  /** Create only: a super admin's announcement that people must acknowledge (must-read-model.ts). */
  acknowledgement?: AcknowledgementInput | null;
  /** Create only: who the post is for (docs/audiences.md, "Targeted content"); absent, the whole company. */
  audience?: AudienceRequest | null;
}

/** A post's `audience` as a client sends it: its rule is checked by resolveAudience (audience.ts). */
export interface AudienceRequest {
  id?: string;
  rule?: unknown;
  dynamic?: boolean;
}

/**
 * A create or PATCH body as the routes receive it (`null` for "none") split into the post (PostInput's
 * absent fields) and its `publishAt`.
 */
export function postInputOf(
  body: Omit<PostInput, 'content' | 'poll' | 'recognition'> & {
    content?: string | null;
    poll?: PostInput['poll'] | null;
    recognition?: PostInput['recognition'] | null;
    publishAt?: string;
  },
): { input: PostInput; publishAt?: string } {
  const { content, poll, recognition, publishAt, ...rest } = body;
  const input = {
    ...rest,
    content: content ?? undefined,
    poll: poll ?? undefined,
    recognition: recognition ?? undefined,
  };
  return { input, publishAt };
}

/**
 * A post as one reader may see it: 404 when missing, hidden from them, or targeted at an audience
 * they are not in (docs/audiences.md: like a deleted post).
 */
export async function readablePost(viewer: Viewer, postId: string, consistent = false): Promise<PostItem> {
  const post = looksLikeId(postId) ? await Post.get({ id: postId }, { consistent }) : undefined;
  if (!post || (post.hidden && !isPrivileged(viewer, post.authorId))) throw notFound('No such post.');
  if (post.audience && !(await mayRead(post, viewer.userId, viewer.role))) throw notFound('No such post.');
  return post;
}

/**
 * The condition that a post still exists, and (unless the caller may see it hidden) is not hidden:
 * reactions, comments, votes and shares check it in their transaction.
 */
export function postOpenCheck(postId: string, mayBeHidden: boolean): TransactItem {
  return Post.check(
    { id: postId },
    {
      ConditionExpression: mayBeHidden ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #hidden = :false',
      ...(mayBeHidden
        ? {}
        : { ExpressionAttributeNames: { '#hidden': 'hidden' }, ExpressionAttributeValues: { ':false': false } }),
    },
  );
}

/** The audience as the author gave it (its rule as checked), as stored on the post (`dynamic` only when true). */
const audienceAsGiven = (a: { rule: Rule; audienceId: string | null; dynamic: boolean }): PostAudienceInput => ({
  ...(a.audienceId !== null ? { id: a.audienceId } : { rule: a.rule }),
  ...(a.dynamic ? { dynamic: true } : {}),
});

const optionId = () => randomBytes(6).toString('hex');

function hasSubstance(input: PostInput): boolean {
  return (
    (input.content ?? '').trim().length > 0 ||
    (input.images?.length ?? 0) > 0 ||
    (input.videos?.length ?? 0) > 0 ||
    (input.documents?.length ?? 0) > 0 ||
    !!input.poll ||
    !!input.recognition
  );
}

function newPoll(input: NonNullable<PostInput['poll']>, now: Date): PollItem {
  const closes = Date.parse(input.closesAt);
  if (!(closes > now.getTime())) throw invalid(['poll.closesAt: must be in the future']);
  return {
    question: input.question,
    description: input.description ?? '',
    options: input.options.map((text) => ({ id: optionId(), text })),
    closesAt: new Date(closes).toISOString(),
    closedAt: null,
  };
}

const samePoll = (p: PollItem, input: NonNullable<PostInput['poll']>) =>
  p.question === input.question &&
  p.description === (input.description ?? '') &&
  Date.parse(p.closesAt) === Date.parse(input.closesAt) &&
  p.options.length === input.options.length &&
  p.options.every((o, i) => o.text === input.options[i]);

const sameRecognition = (r: NonNullable<PostItem['recognition']>, input: NonNullable<PostInput['recognition']>) =>
  r.recipientId === input.recipientId && r.category === input.category && r.message === (input.message ?? '');

/** What a body's mentions resolve to: the ids of known, not deactivated people (validated on write too). */
async function resolveBody(content: string, extraIds: string[] = []) {
  const tokens = mentionIds(content);
  const users = await getUsers([...tokens, ...extraIds]);
  return { users, mentioned: tokens.filter((id) => mentionable(users.get(id))) };
}

/** The recognition's recipient must be somebody else who exists and is not deactivated (400). */
function checkRecipient(authorId: string, recipientId: string, users: Awaited<ReturnType<typeof getUsers>>) {
  if (recipientId === authorId) throw invalid(['recognition.recipientId: you cannot recognise yourself']);
  if (!mentionable(users.get(recipientId))) throw invalid(['recognition.recipientId: no such person']);
}

const recipientCheck = (recipientId: string): TransactItem =>
  User.check(
    { id: recipientId },
    {
      ConditionExpression: 'attribute_exists(pk) AND #s <> :d',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':d': 'deactivated' },
    },
  );

const newStats = (p: PostItem) => ({
  ...(p.audience ? { targeted: true } : {}),
  postId: p.id,
  reactions: zeroReactions(),
  reactionTotal: 0,
  commentCount: 0,
  shareCount: 0,
  tallies: Object.fromEntries((p.poll?.options ?? []).map((o) => [o.id, 0])),
  pollTotal: 0,
  actorId: p.actorId,
});

/** The items a new post (or share) starts with: the post, its counters and its list entries. */
export function newPostItems(post: PostItem): Item[] {
  return [
    Post.item(post),
    PostStats.item(newStats(post)),
    ...listsOf(post).map((list) => PostListEntry.item({ list, postId: post.id, actorId: post.actorId })),
  ];
}

const newPostWrites = (post: PostItem): TransactItem[] => [
  Post.create(post),
  PostStats.put(newStats(post)),
  ...listWrites(post.id, [], listsOf(post), post.actorId),
];

/** Attachments as stored: documents take their type and size from the upload record. */
async function attachments(authorId: string, input: PostInput) {
  const images = input.images ?? [];
  const videos = input.videos ?? [];
  const docsIn = input.documents ?? [];
  const { uploads, checks } = await resolveAttachments(authorId, { images, videos, documents: docsIn });
  const documents: DocumentRef[] = docsIn.map((d) => {
    const u = uploads.get(d.url)!;
    return { url: d.url, name: d.name.trim() || u.name, mimeType: u.mimeType, sizeBytes: u.sizeBytes };
  });
  return { images, videos, documents, checks };
}

/** What the writer chooses of a new post; firstRevision() fills in the rest. */
type PostBody = Pick<
  PostItem,
  | 'content'
  | 'images'
  | 'videos'
  | 'documents'
  | 'poll'
  | 'recognition'
  | 'isAnnouncement'
  | 'sharedPostId'
  | 'mentionedIds'
  | 'acknowledgement'
  | 'audience'
>;

/** A text-only body: no media, poll or recognition, not an announcement, not a share. */
export const textOnly = (content: string, mentionedIds: string[] = []): PostBody => ({
  content,
  images: [],
  videos: [],
  documents: [],
  poll: null,
  recognition: null,
  isAnnouncement: false,
  sharedPostId: null,
  mentionedIds,
});

/**
 * A new post (or share) as first written: its id sorts by `now` (a scheduled post keeps the id it was
 * given when scheduled), tagged from its content, shown, unedited.
 */
export function firstRevision(authorId: string, now: Date, body: PostBody, id = newSortableId(now)): PostItem {
  const at = now.toISOString();
  return Post.item({
    id,
    authorId,
    ...body,
    tags: hashtags(body.content),
    hidden: false,
    createdAt: at,
    updatedAt: at,
    editedAt: null,
    actorId: authorId,
    rev: 0,
  });
}

/**
 * What a new post would be if written at `now`: validated, its mentions and attachments resolved (the
 * checks keep the attachments so until the post's transaction). Creating a post and scheduling one
 * (scheduled-posts.ts) both start here, so a scheduled post is refused for what a post is refused for.
 */
export async function newPostFrom(caller: Viewer, input: PostInput, now: Date, id?: string) {
  if (!hasSubstance(input)) throw invalid(EMPTY_POST_MESSAGE);
  const acknowledgement = acknowledgementOf(caller, input, now);
  const audience = input.audience ? await resolveAudience(caller, input.audience) : undefined;
  const content = await withoutErasing(input.content ?? '');
  const poll = input.poll ? newPoll(input.poll, now) : null;
  const recipientId = input.recognition?.recipientId;
  const { users, mentioned } = await resolveBody(content, recipientId ? [recipientId] : []);
  if (recipientId) checkRecipient(caller.userId, recipientId, users);
  const media = await attachments(caller.userId, input);
  const post = firstRevision(
    caller.userId,
    now,
    {
      content,
      images: media.images,
      videos: media.videos,
      documents: media.documents,
      poll,
      recognition: input.recognition
        ? {
            recipientId: input.recognition.recipientId,
            category: input.recognition.category,
            message: input.recognition.message ?? '',
          }
        : null,
      isAnnouncement: !!input.isAnnouncement && caller.role === 'super_admin',
      sharedPostId: null,
      mentionedIds: mentioned,
      ...(acknowledgement ? { acknowledgement } : {}),
      ...(audience ? { audience: audienceAsGiven(audience) } : {}),
    },
    id,
  );
  const checks = [...media.checks, ...(recipientId ? [recipientCheck(recipientId)] : [])];
  return { post, mentioned, checks, audience };
}

/** A scheduled post being published: its id and moment, and the writes that end its schedule. */
export interface Publishing {
  id: string;
  at: Date;
  writes: TransactItem[];
}

/**
 * Creates a post: a website candidate, counted in the author's posts, its people told. A scheduled
 * post is created the same way at its moment (`publishing`), its schedule ended in the same transaction.
 */
export async function createPost(caller: Viewer, input: PostInput, publishing?: Publishing): Promise<PostItem> {
  const now = publishing?.at ?? new Date();
  const { post, mentioned, checks, audience } = await newPostFrom(caller, input, now, publishing?.id);
  await transactScored([
    ...newPostWrites(post),
    ...mustReadWrites(post),
    // The public website never shows a targeted post (docs/audiences.md).
    ...(audience ? audienceWrites(post, audience) : websiteWrites(undefined, newCandidate(post))),
    ...(await postCountWrites(caller.userId, 1)),
    ...scoreWrites([{ userId: caller.userId, at: post.createdAt, posts: 1 }], caller.userId),
    ...checks,
    ...(publishing?.writes ?? []),
  ]);
  // A targeted post's mentions and recognition go to its readers once they are recorded (audience.ts).
  if (!audience) await notifyNewPost(post, mentioned);
  return post;
}

/**
 * Replaces a post (PATCH is a full replace; author only). A poll or recognition repeated unchanged is
 * kept (votes included), omitted is removed, changed (or added) is a 409. An approved post goes back
 * to pending. People mentioned for the first time are told.
 */
export async function updatePost(caller: Viewer, postId: string, input: PostInput): Promise<PostItem> {
  const { post, newlyMentioned } = await retryOnConflict(async () => {
    const before = await readablePost(caller, postId, true);
    if (before.authorId !== caller.userId) throw forbidden('Only the author can edit a post.');
    const now = new Date().toISOString();
    const content = await withoutErasing(input.content ?? '');
    if (before.sharedPostId) {
      if (input.images?.length || input.videos?.length || input.documents?.length || input.poll || input.recognition) {
        throw invalid(['A share carries only text.']);
      }
    } else if (!hasSubstance(input)) {
      throw invalid(EMPTY_POST_MESSAGE);
    }
    let poll: PollItem | null = null;
    if (input.poll) {
      if (!before.poll || !samePoll(before.poll, input.poll))
        throw conflict('A poll cannot be added or changed; create a new post instead.');
      poll = before.poll;
    }
    let recognition: PostItem['recognition'] = null;
    if (input.recognition) {
      if (!before.recognition || !sameRecognition(before.recognition, input.recognition)) {
        throw conflict('A recognition cannot be added or changed; create a new post instead.');
      }
      recognition = before.recognition;
    }
    const { mentioned } = await resolveBody(content);
    const media = await attachments(caller.userId, input);
    const after: PostItem = {
      ...before,
      content,
      tags: hashtags(content),
      images: media.images,
      videos: media.videos,
      documents: media.documents,
      poll,
      recognition,
      isAnnouncement: !!input.isAnnouncement && caller.role === 'super_admin',
      mentionedIds: [...new Set([...before.mentionedIds, ...mentioned])],
      updatedAt: now,
      editedAt: now,
      actorId: caller.userId,
      rev: before.rev + 1,
    };
    const entry = before.sharedPostId ? undefined : await getWebsiteEntry(postId);
    const writes: TransactItem[] = [
      Post.put(after, { ConditionExpression: 'rev = :seen', ExpressionAttributeValues: { ':seen': before.rev } }),
      ...listWrites(postId, listsOf(before), listsOf(after), caller.userId),
      ...media.checks,
    ];
    if (before.poll && !poll) {
      writes.push(
        PostStats.update(
          { postId },
          {
            UpdateExpression: 'SET tallies = :none, pollTotal = :zero, actorId = :a',
            ExpressionAttributeValues: { ':none': {}, ':zero': 0, ':a': caller.userId },
          },
        ),
      );
    }
    if (entry) {
      const next = afterEdit(entry, caller.userId);
      if (next !== entry) writes.push(...websiteWrites(entry, next));
    }
    await transact(writes);
    return {
      post: after,
      newlyMentioned: mentioned.filter((id) => !before.mentionedIds.includes(id) && id !== recognition?.recipientId),
    };
  });
  await notifyNewMentions(post, newlyMentioned, caller.userId);
  return post;
}

/** Deletes a post (author or super admin): off every list, the website and the counts at once. */
export async function deletePost(caller: Viewer, postId: string): Promise<void> {
  const seen = await readablePost(caller, postId, true);
  if (!isPrivileged(caller, seen.authorId)) throw forbidden('Only the author or a super admin can delete a post.');
  // Stamps who deletes it, so the change feed attributes the removal to them.
  await write(
    Post.update(
      { id: postId },
      {
        UpdateExpression: 'SET actorId = :a ADD rev :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':a': caller.userId, ':one': 1 },
      },
    ),
    { returnValues: 'NONE' },
  ).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err)));
  await retryOnConflict(async () => {
    const post = await Post.get({ id: postId }, { consistent: true });
    if (!post) return;
    const entry = post.sharedPostId ? undefined : await getWebsiteEntry(postId);
    const original = post.sharedPostId ? await Post.get({ id: post.sharedPostId }, { consistent: true }) : undefined;
    const sharedByOther = !!original && original.authorId !== post.authorId;
    await transactScored([
      Post.remove(
        { id: postId },
        { ConditionExpression: 'rev = :seen', ExpressionAttributeValues: { ':seen': post.rev } },
      ),
      PostStats.remove({ postId }),
      ...listWrites(postId, listsOf(post), [], caller.userId),
      ...(entry ? websiteWrites(entry, undefined) : []),
      ...(await postCountWrites(post.authorId, -1)),
      ...scoreWrites(
        [
          { userId: post.authorId, at: post.createdAt, posts: -1 },
          ...(sharedByOther ? [{ userId: original.authorId, at: post.createdAt, shares: -1 }] : []),
        ],
        caller.userId,
      ),
      ...(sharedByOther ? [shareCountWrite(original.id, -1, caller.userId)] : []),
    ]);
  });
}

const shareCountWrite = (postId: string, delta: number, actorId: string): TransactItem =>
  PostStats.update(
    { postId },
    {
      UpdateExpression: 'SET actorId = :a ADD shareCount :d',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':d': delta, ':a': actorId },
    },
  );

/**
 * Shares a post: a new post of the caller whose sharedPost is the original (a share of a share shares
 * the original). Counted in the sharer's posts; the original's shareCount and its author's score count
 * shares by others only. Shares are not website candidates.
 */
export async function sharePost(caller: Viewer, postId: string, text: string): Promise<PostItem> {
  const content = await withoutErasing(text);
  const target = await readablePost(caller, postId, true);
  const original = target.sharedPostId ? await readablePost(caller, target.sharedPostId, true) : target;
  if (original.hidden) throw notFound('No such post.');
  // A share is for everybody: a post for an audience is not shared (docs/audiences.md).
  if (original.audience || target.audience) throw forbidden('A post for an audience cannot be shared.');
  const now = new Date();
  const at = now.toISOString();
  const { mentioned } = await resolveBody(content);
  const share = firstRevision(caller.userId, now, { ...textOnly(content, mentioned), sharedPostId: original.id });
  const byOther = original.authorId !== caller.userId;
  await transactScored([
    ...newPostWrites(share),
    postOpenCheck(original.id, false),
    ...(byOther ? [shareCountWrite(original.id, 1, caller.userId)] : []),
    ...(await postCountWrites(caller.userId, 1)),
    ...scoreWrites(
      [{ userId: caller.userId, at, posts: 1 }, ...(byOther ? [{ userId: original.authorId, at, shares: 1 }] : [])],
      caller.userId,
    ),
  ]).catch((err) => {
    throw isConditionFailure(err) ? notFound('No such post.') : err;
  });
  await notifyNewPost(share, mentioned);
  return share;
}

/**
 * Hides or unhides a post (super admins): off every list and the website while hidden. Without a
 * caller (moderation's reporters' threshold, docs/moderation.md) the post keeps its last actor, so the
 * change feed names nobody who reported it.
 */
export async function setHidden(caller: Viewer | null, postId: string, hidden: boolean): Promise<PostItem> {
  return retryOnConflict(async () => {
    const before = looksLikeId(postId) ? await Post.get({ id: postId }, { consistent: true }) : undefined;
    if (!before) throw notFound('No such post.');
    if (before.hidden === hidden) return before;
    const actorId = caller?.userId ?? before.actorId;
    const after: PostItem = {
      ...before,
      hidden,
      updatedAt: new Date().toISOString(),
      actorId,
      rev: before.rev + 1,
    };
    const entry = before.sharedPostId ? undefined : await getWebsiteEntry(postId);
    await transact([
      Post.update(
        { id: postId },
        {
          UpdateExpression: 'SET #hidden = :h, updatedAt = :u, actorId = :a ADD rev :one',
          ConditionExpression: 'rev = :seen',
          ExpressionAttributeNames: { '#hidden': 'hidden' },
          ExpressionAttributeValues: {
            ':h': hidden,
            ':u': after.updatedAt,
            ':a': actorId,
            ':seen': before.rev,
            ':one': 1,
          },
        },
      ),
      ...listWrites(postId, listsOf(before), listsOf(after), actorId),
      ...(entry ? websiteWrites(entry, afterHiding(entry, hidden, actorId)) : []),
    ]);
    return after;
  });
}

/** Several posts by id (one batch read), in the order asked; missing ones are absent. */
export async function getPosts(ids: string[]): Promise<Map<string, PostItem>> {
  const found = await Post.getMany(ids.map((id) => ({ id })));
  return new Map(ids.flatMap((id, i) => (found[i] ? [[id, found[i]] as const] : [])));
}
