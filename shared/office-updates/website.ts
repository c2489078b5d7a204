import { page } from '../db/paging.ts';
import { getMany, keyString, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { Post, type PostItem } from '../feed/entities.ts';
import { WebsiteCounts, WebsiteEntry, type WebsiteEntryItem } from './entities.ts';
import { WEBSITE_STATUSES, type WebsiteStatus } from './website-status.ts';

/**
 * The website side of a post: every new post that is not a share is a
 * candidate. Its record moves through pending → approved / rejected / unpublished; it is on the public
 * list only while approved and not hidden. Counts per status count records that are not hidden, and
 * move in the same transaction as the record.
 */
function countDeltas(before: WebsiteEntryItem | undefined, after: WebsiteEntryItem | undefined): TransactItem[] {
  const delta = new Map<WebsiteStatus, number>();
  if (before && !before.hidden) delta.set(before.status, (delta.get(before.status) ?? 0) - 1);
  if (after && !after.hidden) delta.set(after.status, (delta.get(after.status) ?? 0) + 1);
  const moves = [...delta].filter(([, d]) => d !== 0);
  if (moves.length === 0) return [];
  const names = Object.fromEntries(moves.map(([s]) => [`#${s}`, s]));
  const values = Object.fromEntries(moves.map(([s, d]) => [`:${s}`, d]));
  return [
    WebsiteCounts.update(
      {},
      {
        UpdateExpression: `SET entity = :entity ADD ${moves.map(([s]) => `#${s} :${s}`).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':entity': WebsiteCounts.name },
      },
    ),
  ];
}

/**
 * The writes that move a post's website record from `before` (as read) to `after` (undefined =
 * removed), conditional on nobody having moved it meanwhile, with the counts.
 */
export function websiteWrites(
  before: WebsiteEntryItem | undefined,
  after: WebsiteEntryItem | undefined,
): TransactItem[] {
  const unchanged = before
    ? {
        ConditionExpression: '#status = :oldStatus AND #hidden = :oldHidden',
        ExpressionAttributeNames: { '#status': 'status', '#hidden': 'hidden' },
        ExpressionAttributeValues: { ':oldStatus': before.status, ':oldHidden': before.hidden },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };
  const write: TransactItem[] = [];
  if (after) write.push(WebsiteEntry.put(after, { ...unchanged }));
  else if (before) write.push(WebsiteEntry.remove(before, { ...unchanged }));
  return [...write, ...countDeltas(before, after)];
}

/** A new post's record: pending, never reviewed. */
export function newCandidate(post: Pick<PostItem, 'id' | 'createdAt' | 'actorId'>): WebsiteEntryItem {
  return WebsiteEntry.item({
    postId: post.id,
    status: 'pending',
    review: null,
    publishedAt: null,
    hidden: false,
    createdAt: post.createdAt,
    actorId: post.actorId,
  });
}

/** Editing an approved post puts it back to pending and off the website. */
export function afterEdit(e: WebsiteEntryItem, actorId: string): WebsiteEntryItem {
  return e.status === 'approved' ? { ...e, status: 'pending', publishedAt: null, actorId } : e;
}

export const afterHiding = (e: WebsiteEntryItem, hidden: boolean, actorId: string): WebsiteEntryItem => ({
  ...e,
  hidden,
  actorId,
});

export const getWebsiteEntry = (postId: string) => WebsiteEntry.get({ postId }, { consistent: true });

// ---------------------------------------------------------------- review decisions

export type Decision = 'approve' | 'reject' | 'unpublish';

const ALLOWED: Record<Decision, WebsiteStatus[]> = {
  approve: ['pending', 'rejected', 'unpublished'],
  reject: ['pending', 'unpublished'],
  unpublish: ['approved'],
};
const TARGET: Record<Decision, WebsiteStatus> = { approve: 'approved', reject: 'rejected', unpublish: 'unpublished' };

/** A 409 message that says the current state and what is possible from it. */
function refusal(decision: Decision, status: WebsiteStatus): string {
  if (TARGET[decision] === status) return `Post is already ${status}.`;
  if (decision === 'unpublish') return `Post is ${status}; only an approved post can be unpublished.`;
  if (decision === 'reject' && status === 'approved') return 'Post is approved; unpublish it instead.';
  return `Post is ${status}; it cannot be ${TARGET[decision]} from there.`;
}

/**
 * Applies a review decision. 404 when the post does not exist, was deleted or is hidden; 409 when the
 * current state does not allow it. `reviewer` is the super admin's name.
 *
 * `reviewedAt`: when the reviewer's view of the post was made. The author may edit a pending post at
 * any time, so without it an approval publishes whatever the post says when the click arrives; with
 * it, a post edited at or after that moment is a 409 (review it again), and the post's revision read
 * is a condition of the write, so an edit racing the approval cannot slip in between. The moment has
 * whole-second precision (an HTTP date), so an edit in the same second counts as later: the reviewer
 * looks again rather than publish what they may not have seen.
 */
export async function decide(
  postId: string,
  decision: Decision,
  reviewer: { userId: string; name: string },
  reason: string | null,
  { reviewedAt }: { reviewedAt?: Date } = {},
): Promise<{ entry: WebsiteEntryItem; post: PostItem }> {
  // Somebody moved it meanwhile: decide again from what it is now.
  return retryOnConflict(
    async () => {
      // One batch read of the post's partition: the record and the post, each told by its declaration.
      const found = await getMany([WebsiteEntry.key({ postId }), Post.key({ id: postId })], true);
      const entry = found.get(keyString(WebsiteEntry.key({ postId })));
      const post = found.get(keyString(Post.key({ id: postId })));
      if (!WebsiteEntry.is(entry) || !Post.is(post) || post.hidden || entry.hidden) throw notFound('No such post.');
      if (!ALLOWED[decision].includes(entry.status)) throw conflict(refusal(decision, entry.status));
      if (reviewedAt && post.editedAt && Date.parse(post.editedAt) >= reviewedAt.getTime())
        throw conflict(`The post was edited at ${post.editedAt}, after the version reviewed; review it again.`);
      const now = new Date().toISOString();
      const next: WebsiteEntryItem = {
        ...entry,
        status: TARGET[decision],
        review: { reviewedAt: now, reviewer: reviewer.name, reason: decision === 'approve' ? null : reason },
        publishedAt: decision === 'approve' ? now : null,
        actorId: reviewer.userId,
      };
      const unchangedPost = reviewedAt
        ? [
            Post.check(
              { id: postId },
              {
                ConditionExpression: 'rev = :rev',
                ExpressionAttributeValues: { ':rev': post.rev },
              },
            ),
          ]
        : [];
      await transact([...websiteWrites(entry, next), ...unchangedPost]);
      return { entry: next, post };
    },
    { attempts: 4 },
  );
}

export async function websiteCounts(): Promise<Record<WebsiteStatus, number>> {
  const c = await WebsiteCounts.get({}, { consistent: true });
  return Object.fromEntries(WEBSITE_STATUSES.map((s) => [s, Math.max(0, c?.[s] ?? 0)])) as Record<
    WebsiteStatus,
    number
  >;
}

/** The admin queue of one status, newest post first: one Query. */
export function websiteQueuePage(status: WebsiteStatus, limit: number, cursor: string | undefined) {
  return WebsiteEntry.query({ index: 'queue', key: { status }, forward: false }, page({ limit, cursor }));
}

/** The public list, newest publishedAt first: one Query. */
export function officeUpdatesPage(limit: number, cursor: string | undefined) {
  return WebsiteEntry.query({ index: 'published', key: {}, forward: false }, page({ limit, cursor }));
}
