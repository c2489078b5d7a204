import { ruleMembers, rulesSelecting } from '../audiences/audiences.ts';
import type { Rule } from '../audiences/rule.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, type TransactItem, transact } from '../db/table.ts';
import { companyValuesOf } from '../people/company-values.ts';
import type { UserItem } from '../people/entities.ts';
import { announce } from './announcements.ts';
import {
  MustRead,
  Post,
  PostAudience,
  type PostAudienceItem,
  type PostCreatedFields,
  type PostItem,
  PostReader,
  type PostReaderItem,
} from './entities.ts';
import { followEventJoiner } from './event-audience.ts';
import { readersAmong } from './may-read.ts';
import { addAudience, joinOne } from './must-read-audience.ts';
import { notifyNewPost } from './notify.ts';
import { nextPageOf } from './paged-progress.ts';

/**
 * Targeted content (docs/audiences.md, "Targeted content"): a post, announcement or must-read with an
 * `audience` is visible to that audience only (and its author and super admins).
 *
 * - **Frozen at publish.** The request checks the audience (a member may target only an audience
 *   that selects them, or people all below them) and writes, with the post, its `PostAudience` (the
 *   rule, a named audience's copied) and the author's own `PostReader`. The `company-fan-out`
 *   consumer then records every person the rule selected at publish (who joined the company by then,
 *   not deactivated) as a `PostReader`, page by page in id order, resumable from its recorded cursor.
 *   Until a person's item is written the post is not theirs to see (author and super admins only).
 *   Once done: its announcement, its must-read people, its mentions and recognition go to the readers.
 * - **Dynamic.** A `dynamic` audience also takes people who join it later (a new or changed person on
 *   the change feed is tested against each dynamic audience still following, for 90 days).
 * - **Reading.** `mayRead` is one GetItem for anybody but the author and super admins; a reader's
 *   feed merges their timeline (their `PostReader` items by post id, gsi1) with the whole company's
 *   list, on which a targeted post never is (list-posts.ts).
 */

/** Readers recorded per transaction (with the progress: at most 100 items). */
export const READERS_PAGE = 90;
/** How long a dynamic audience keeps taking people who join it. */
export const FOLLOW_DAYS = 90;

const createdFields = (p: PostItem): PostCreatedFields => ({
  authorId: p.authorId,
  isAnnouncement: p.isAnnouncement,
  isRecognition: !!p.recognition,
  hasPoll: !!p.poll,
});

/** What a targeted post's creation writes beside it: its frozen audience's state and the author's own reader item. */
export function audienceWrites(
  post: PostItem,
  audience: { rule: Rule; audienceId: string | null; dynamic: boolean },
): TransactItem[] {
  const at = post.createdAt;
  const followUntil = audience.dynamic ? new Date(Date.parse(at) + FOLLOW_DAYS * 86_400_000).toISOString() : undefined;
  return [
    PostAudience.create({
      postId: post.id,
      authorId: post.authorId,
      rule: audience.rule,
      audienceId: audience.audienceId,
      dynamic: audience.dynamic,
      cutoff: at,
      cursor: null,
      created: createdFields(post),
      step: 0,
      sent: 0,
      createdAt: at,
      ...(followUntil ? { followUntil } : {}),
    }),
    PostReader.put({ postId: post.id, userId: post.authorId, how: 'author', addedAt: at }),
  ];
}

/**
 * A page of a targeted post's frozen audience (its `PostReader` items, by person id): `how` says
 * `author`, `publish` or `joined`. For reach (shared/reach/): who was targeted, without the keys.
 */
export async function postAudienceMembers(
  postId: string,
  cursor?: string,
  limit = 100,
): Promise<{ items: Pick<PostReaderItem, 'userId' | 'how' | 'addedAt'>[]; nextCursor: string | null }> {
  const found = await PostReader.query({ key: { postId } }, page({ limit, cursor }));
  return {
    items: found.items.map((r) => ({ userId: r.userId, how: r.how, addedAt: r.addedAt })),
    nextCursor: found.nextCursor,
  };
}

/** A reader's timeline (their targeted posts), newest first, before a post id: one Query. */
export async function timelinePage(
  userId: string,
  before: string | undefined,
  n: number,
): Promise<{ ids: string[]; more: boolean }> {
  const found = await PostReader.query(
    {
      index: 'timeline',
      key: { userId },
      ...(before !== undefined ? { skBefore: before } : {}),
      forward: false,
    },
    page({ limit: n }),
  );
  return { ids: found.items.map((r) => r.postId), more: found.nextCursor !== null };
}

/** Records the next page of readers; answers the state as it now is. Throws a condition failure when another attempt recorded it first. */
async function recordPage(a: PostAudienceItem, ids: string[], done: boolean): Promise<PostAudienceItem> {
  const at = new Date().toISOString();
  const step = nextPageOf(a, ids.length, { done, cursor: ids.at(-1) ?? a.cursor, at });
  await transact([
    PostAudience.update({ postId: a.postId }, step.parts),
    ...ids.map((userId) => PostReader.put({ postId: a.postId, userId, how: 'publish', addedAt: at })),
  ]);
  return step.progress;
}

/**
 * The background pass of a targeted post (company-fan-out, on its `PostAudience` INSERT): records its
 * audience at publish, then tells the readers (announcement, must-read, mentions, recognition).
 * Resumable: a redelivery goes on from the recorded cursor; a page is never recorded twice.
 */
export async function fanOutAudience(postId: string, pageSize = READERS_PAGE): Promise<void> {
  let a = await PostAudience.get({ postId }, { consistent: true });
  if (!a) return;
  if (!a.doneAt) {
    const cutoff = a.cutoff;
    const members = (await ruleMembers(a.rule)).filter((m) => m.joinedAt <= cutoff && m.id !== a!.authorId);
    try {
      while (!a.doneAt) {
        const after = a.cursor;
        const rest = after === null ? members : members.filter((m) => m.id > after);
        const ids = rest.slice(0, pageSize).map((m) => m.id);
        a = await recordPage(a, ids, rest.length <= pageSize);
      }
    } catch (err) {
      if (isConditionFailure(err)) return; // another attempt recorded this page: it goes on from there
      throw err;
    }
  }
  await afterFrozen(postId);
}

/** Once the readers are recorded: the announcement, the must-read's people and the post's own notices go to them. */
async function afterFrozen(postId: string): Promise<void> {
  const post = await Post.get({ id: postId }, { consistent: true });
  if (!post) return;
  if (post.isAnnouncement) await announce(postId);
  if (post.acknowledgement && (await MustRead.get({ postId }, { consistent: true }))) await addAudience(postId);
  await notifyReaders(post);
}

/**
 * A targeted post's mentions and recognition, told once its readers are recorded, only to readers.
 * notify() is idempotent per recipient and post for these kinds, so a redelivery tells nobody twice.
 */
async function notifyReaders(post: PostItem): Promise<void> {
  const wanted = [...post.mentionedIds, ...(post.recognition ? [post.recognition.recipientId] : [])];
  if (!wanted.length) return;
  const readers = await readersAmong(post.id, wanted);
  const recognised = post.recognition && readers.has(post.recognition.recipientId);
  await notifyNewPost(
    recognised ? post : { ...post, recognition: null },
    post.mentionedIds.filter((id) => readers.has(id)),
  );
}

/** The dynamic audiences still following joiners (O(such posts), bounded by 1,000). */
const following = () =>
  PostAudience.queryAll({ index: 'following', key: {}, skAfter: new Date().toISOString() }, { max: 1000 });

/**
 * A person who joined or changed (a new member, or the company's values of one changed): added to
 * every dynamic audience still following whose rule now selects them and that they are not in yet.
 * Their values are read from the change itself (the roster may not have folded it yet).
 */
export async function followJoiner(person: UserItem): Promise<void> {
  if (person.status === 'deactivated') return;
  const fresh = {
    id: person.id,
    role: person.role,
    status: person.status,
    company: companyValuesOf(person),
    joinedAt: person.joinedAt,
  };
  await followEventJoiner(fresh);
  const open = await following();
  if (!open.length) return;
  const have = await PostReader.getMany(open.map((a) => ({ postId: a.postId, userId: person.id })));
  const candidates = open.filter((a, i) => !have[i] && a.authorId !== person.id);
  const selecting = new Set(
    await rulesSelecting(
      candidates.map((a) => a.rule),
      fresh,
    ),
  );
  for (const [i, a] of candidates.entries()) {
    if (!selecting.has(i)) continue;
    try {
      await transact([
        PostReader.create({
          postId: a.postId,
          userId: person.id,
          how: 'joined',
          addedAt: new Date().toISOString(),
          ...(a.created ? { created: a.created } : {}),
        }),
        Post.check({ id: a.postId }, { ConditionExpression: 'attribute_exists(pk)' }),
      ]);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      continue;
    }
    // A must-read still open to joiners owes them an acknowledgement too.
    const m = await MustRead.get({ postId: a.postId }, { consistent: true });
    if (m && !m.joinClosedAt && m.joinUntil > new Date().toISOString()) await joinOne(m, person.id);
  }
}
