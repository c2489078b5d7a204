import type { TransactItem } from '../db/table.ts';
import { PostStats } from './entities.ts';

/**
 * The post-stats update for one person changing their single choice on a post (a reaction, a poll
 * vote) from `held` to `next`, either of which may be none: one off the old entry of the counter map,
 * one on the new, and `total` (how many people hold a choice) moved to match. Reactions and votes
 * keep their counters the same way, so they share this.
 */
export function choiceCountUpdate(
  postId: string,
  counters: 'reactions' | 'tallies',
  total: 'reactionTotal' | 'pollTotal',
  held: string | null,
  next: string | null,
  actorId: string,
): TransactItem {
  const names: Record<string, string> = {};
  const sets = ['actorId = :a'];
  if (next) {
    names['#n'] = next;
    sets.push(`${counters}.#n = ${counters}.#n + :one`);
  }
  if (held) {
    names['#o'] = held;
    sets.push(`${counters}.#o = ${counters}.#o - :one`);
  }
  return PostStats.update(
    { postId },
    {
      UpdateExpression: `SET ${sets.join(', ')} ADD ${total} :t`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':one': 1, ':a': actorId, ':t': (next ? 1 : 0) - (held ? 1 : 0) },
    },
  );
}
