import { atRevision } from '../db/entity.ts';
import { page } from '../db/paging.ts';
import { getMany, keyString, retryOnConflict, transact } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { Post, type PostItem } from '../feed/entities.ts';
import { WebsiteCounts, WebsiteEntry, type WebsiteEntryItem } from '../website/entities.ts';
import { websiteWrites } from '../website/records.ts';
import { WEBSITE_STATUSES, type WebsiteStatus } from '../website/status.ts';

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
      const unchangedPost = reviewedAt ? [Post.check({ id: postId }, atRevision(post.rev))] : [];
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
