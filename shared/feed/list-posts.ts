import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { page } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import { migrationDone } from '../migrations/done.ts';
import { FOLLOWING_LISTS_MIGRATION } from '../migrations/following-lists.ts';
import { getUser } from '../people/users.ts';
import { timelinePage } from './audience.ts';
import { Bookmark, Follow, FollowedPost, type PostItem, PostListEntry } from './entities.ts';
import { readableOf } from './may-read.ts';
import type { PostType } from './model.ts';
import type { Viewer } from './people.ts';
import { postLists } from './post-lists.ts';
import { type PostView, postViews } from './post-view.ts';
import { getPosts } from './posts.ts';
import { normaliseTag } from './text.ts';

/**
 * Post lists: every list is a partition of entries keyed by post id (time-sortable), so
 * "newest first" is one descending Query. The cursor is the last post id handed out, sealed with the
 * list it belongs to. A page costs one Query (two for `following`), one batch read of the posts and the
 * views' fixed batch reads; the lists everybody reads also Query the reader's timeline of targeted
 * posts (docs/audiences.md), merged by post id under the same cursor (both are ordered by post id). Filters given together are applied to the entries of the most selective
 * list, reading on (at most MAX_ROUNDS times) until the page is full.
 */
export interface PostFilters {
  tag?: string;
  authorId?: string;
  type?: PostType;
  bookmarked?: boolean;
  following?: boolean;
  recognizedId?: string;
}

const MAX_ROUNDS = 4;

/** Post ids of a list, newest first, before a post id: one Query. */
type Source = (before: string | undefined, n: number) => Promise<{ ids: string[]; more: boolean }>;

const listSource =
  (list: string): Source =>
  async (before, n) => {
    const found = await PostListEntry.query(
      { key: { list }, ...(before !== undefined ? { before: { postId: before } } : {}), forward: false },
      page({ limit: n }),
    );
    return { ids: found.items.map((e) => e.postId), more: found.nextCursor !== null };
  };

/** A person's bookmarks (their own list), newest post first: one Query. */
const bookmarksSource =
  (userId: string): Source =>
  async (before, n) => {
    const found = await Bookmark.query(
      { key: { userId }, ...(before !== undefined ? { before: { postId: before } } : {}), forward: false },
      page({ limit: n }),
    );
    return { ids: found.items.map((b) => b.postId), more: found.nextCursor !== null };
  };

const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

/** Sources merged newest first, each id once. */
const merged =
  (sources: Source[]): Source =>
  async (before, n) => {
    const pages = await Promise.all(sources.map((s) => s(before, n)));
    const ids = [...new Set(pages.flatMap((p) => p.ids))].sort(newestFirst);
    return { ids: ids.slice(0, n), more: ids.length > n || pages.some((p) => p.more) };
  };

/** A person's following list (following-lists.ts), newest post first: one Query. */
const followedPostsSource =
  (userId: string): Source =>
  async (before, n) => {
    const found = await FollowedPost.query(
      { key: { userId }, ...(before !== undefined ? { before: { postId: before } } : {}), forward: false },
      page({ limit: n }),
    );
    return { ids: found.items.map((e) => e.postId), more: found.nextCursor !== null };
  };

/**
 * The followed people's posts among the newest of the whole feed, as far back as the following lists'
 * consumer may lag: what it has not copied yet is found here. Read once per request (a Query and two
 * batch reads); it never asks for more pages.
 */
const LAG_WINDOW = 50;
function followedInFeedHead(userId: string): Source {
  let head: Promise<string[]> | undefined;
  const read = async () => {
    const { ids } = await listSource(postLists.all)(undefined, LAG_WINDOW);
    const posts = await getPosts(ids);
    const followed = await followedAuthors(
      userId,
      [...posts.values()].map((p) => p.authorId),
    );
    return ids.filter((id) => followed.has(posts.get(id)?.authorId ?? ''));
  };
  return async (before) => {
    head ??= read();
    return { ids: (await head).filter((id) => before === undefined || id < before), more: false };
  };
}

/** Which of these authors a person follows: one batch read. */
async function followedAuthors(userId: string, authorIds: string[]): Promise<Set<string>> {
  const unique = [...new Set(authorIds)];
  const found = await Follow.getMany(unique.map((followingId) => ({ userId, followingId })));
  return new Set(unique.filter((_, i) => found[i]));
}

/** Before the 0012 migration indexed the follows: one Query per followed person, run together. */
async function followedAuthorsSource(userId: string): Promise<Source> {
  const followed = (await Follow.queryAll({ key: { userId } })).map((f) => f.followingId);
  return merged(followed.map((id) => listSource(postLists.author(id))));
}

/** Picks the list to read and the checks left for the posts read from it. */
async function plan(
  viewer: Viewer,
  f: PostFilters,
): Promise<{
  source: Source;
  keep: (p: PostItem) => boolean;
  /** Posts only by people the reader follows (read per batch). */
  followedOnly: boolean;
  exact: boolean;
}> {
  const tag = f.tag !== undefined ? normaliseTag(f.tag) : undefined;
  const checks: ((p: PostItem) => boolean)[] = [];
  let source: Source | undefined;
  /** The check of the list read, when it is a list everybody reads (the reader's timeline needs it). */
  let primary: ((p: PostItem) => boolean) | undefined;
  const use = (s: Source, check: ((p: PostItem) => boolean) | null) => {
    if (!source) {
      source = s;
      primary = check ?? undefined;
    } else if (check) checks.push(check);
  };
  // Most selective first; a filter that does not pick the list becomes a check on each post.
  if (f.bookmarked) use(bookmarksSource(viewer.userId), null);
  if (f.recognizedId)
    use(listSource(postLists.recognized(f.recognizedId)), (p) => p.recognition?.recipientId === f.recognizedId);
  if (tag !== undefined) use(listSource(postLists.tag(tag)), (p) => p.tags.includes(tag));
  if (f.authorId) use(listSource(postLists.author(f.authorId)), (p) => p.authorId === f.authorId);
  if (f.type) use(listSource(postLists.type(f.type)), typeCheck(f.type));
  if (f.following && !source)
    source = (await migrationDone(FOLLOWING_LISTS_MIGRATION))
      ? merged([followedPostsSource(viewer.userId), followedInFeedHead(viewer.userId)])
      : await followedAuthorsSource(viewer.userId);
  // Targeted posts are on no list everybody reads, only on their readers' timelines (audience.ts):
  // the whole feed and the lists by tag, author, type or recipient merge in the reader's timeline, whose
  // entries take the list's own check. The whole feed's needs none: its page stays exact.
  const sharedList = !f.bookmarked && !f.following;
  // Not counted against `exact`: the list's own entries all pass it, so a page without targeted
  // posts reads as before; a timeline entry it drops leaves a short page (the cursor goes on).
  const exact = !f.bookmarked && !f.following && checks.length === 0;
  if (primary) checks.push(primary);
  const timeline: Source = (before, n) => timelinePage(viewer.userId, before, n);
  // Bookmarks are the reader's own entries: they outlive hiding and deleting, which are checked here.
  const keep = (p: PostItem) => !p.hidden && checks.every((c) => c(p));
  const followedOnly = !!f.following;
  return {
    source: sharedList
      ? merged([source ?? listSource(postLists.all), timeline])
      : (source ?? listSource(postLists.all)),
    keep,
    followedOnly,
    exact,
  };
}

function typeCheck(type: PostType): (p: PostItem) => boolean {
  if (type === 'announcement') return (p) => p.isAnnouncement;
  if (type === 'recognition') return (p) => p.recognition !== null;
  return (p) => p.poll !== null;
}

const scopeOf = (viewer: Viewer, f: PostFilters) =>
  `posts|${JSON.stringify([f.tag ? normaliseTag(f.tag) : null, f.authorId ?? null, f.type ?? null, !!f.bookmarked, !!f.following, f.recognizedId ?? null])}|${f.bookmarked || f.following ? viewer.userId : ''}`;

export async function listPosts(
  viewer: Viewer,
  f: PostFilters,
  limit: number,
  cursor: string | undefined,
): Promise<{ items: PostView[]; nextCursor: string | null }> {
  const scope = scopeOf(viewer, f);
  let before = decodeCursor(scope, cursor)?.before as string | undefined;
  const { source, keep, followedOnly, exact } = await plan(viewer, f);
  const kept: PostItem[] = [];
  let more = true;
  for (let round = 0; round < (exact ? 1 : MAX_ROUNDS) && more && kept.length < limit; round++) {
    const want = limit - kept.length;
    const batch = await source(before, exact ? want : Math.max(want, 10));
    const posts = await getPosts(batch.ids);
    // A bookmark or a followed author's entry of a targeted post the reader is not in: left out.
    const readable = await readableOf(viewer, [...posts.values()]);
    const followed = followedOnly
      ? await followedAuthors(
          viewer.userId,
          [...posts.values()].map((p) => p.authorId),
        )
      : undefined;
    more = batch.more;
    for (const [i, id] of batch.ids.entries()) {
      before = id;
      const p = posts.get(id);
      if (p && readable.has(id) && keep(p) && (!followed || followed.has(p.authorId))) kept.push(p);
      if (kept.length === limit) {
        more = more || i < batch.ids.length - 1;
        break;
      }
    }
  }
  return { items: await postViews(viewer, kept), nextCursor: more && before ? encodeCursor(scope, { before }) : null };
}

/** Recognition posts for one person (404 for nobody). */
export async function listRecognitionsOf(viewer: Viewer, userId: string, limit: number, cursor: string | undefined) {
  if (!(await getUser(userId))) throw notFound('No such person.');
  return listPosts(viewer, { recognizedId: userId }, limit, cursor);
}
