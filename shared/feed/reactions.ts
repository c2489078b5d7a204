import type { EntityFields } from '../db/entity.ts';
import { retryOnConflict, type TransactItem } from '../db/table.ts';
import { choiceCountUpdate } from './choice-counts.ts';
import { type PostItem, PostReaction } from './entities.ts';
import type { Reaction } from './model.ts';
import { notifyReaction } from './notify.ts';
import { isPrivileged, type Viewer } from './people.ts';
import { postOpenCheck, readablePost } from './posts.ts';
import { type ScoreDelta, scoreWrites, transactScored } from './scores.ts';

/** Counted on the leaderboard (dislikes are not). */
const scores = (r: Reaction | null | undefined) => !!r && r !== 'dislike';

/**
 * Sets (or, with null, takes back) the caller's reaction: one per person per post, a new one replaces
 * the old, the one already held is kept. The counters move in the transaction that moves the
 * reaction, conditional on the reaction read, so concurrent reactions never lose a count. The author
 * is told once per reacting person, whatever they change to later.
 */
export async function setReaction(caller: Viewer, postId: string, reaction: Reaction | null): Promise<PostItem> {
  return retryOnConflict(async () => {
    const post = await readablePost(caller, postId, true);
    const current = await PostReaction.get({ postId, userId: caller.userId }, { consistent: true });
    const held = current?.reaction ?? null;
    if (held === reaction) return post;
    const now = new Date().toISOString();
    const firstEver = !current && reaction !== null;
    const keepsDay = !!current?.reactedAt && scores(held) === scores(reaction);
    const reactedAt = reaction === null ? undefined : keepsDay ? current!.reactedAt : now;
    const unchanged = current
      ? held
        ? { ConditionExpression: 'reaction = :held', ExpressionAttributeValues: { ':held': held } }
        : { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reaction)' }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    const item: EntityFields<typeof PostReaction> = {
      postId,
      userId: caller.userId,
      actorId: caller.userId,
    };
    if (reaction) {
      item.reaction = reaction;
      item.reactedAt = reactedAt;
    }
    const score: ScoreDelta[] = [];
    if (post.authorId !== caller.userId && scores(held) !== scores(reaction)) {
      score.push(
        scores(reaction)
          ? { userId: post.authorId, at: now, reactions: 1 }
          : { userId: post.authorId, at: current?.reactedAt ?? now, reactions: -1 },
      );
    }
    const writes: TransactItem[] = [
      PostReaction.put(item, unchanged),
      choiceCountUpdate(postId, 'reactions', 'reactionTotal', held, reaction, caller.userId),
      postOpenCheck(postId, isPrivileged(caller, post.authorId)),
      ...scoreWrites(score, caller.userId),
    ];
    await transactScored(writes);
    if (firstEver) await notifyReaction(post, caller.userId);
    return post;
  });
}
