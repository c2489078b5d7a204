import { addToCounter } from '../db/counters.ts';
import { userKey } from '../db/keys.ts';
import type { TransactItem } from '../db/table.ts';

/**
 * The writes that move a person's `postCount` (shown on profiles and the directory, and the
 * directory's `posts` sort). The feed calls this inside the transaction that creates or removes a
 * post; the people area owns what else must move with it (e.g. an index sort key).
 */
export function postCountWrites(userId: string, delta: number): TransactItem[] {
  return [addToCounter(userKey(userId), 'postCount', delta)];
}
