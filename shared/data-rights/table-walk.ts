import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../config/env.ts';
import { db } from '../db/client.ts';
import type { Item } from '../db/table.ts';
import { carriesPerson, type Needles } from './person-match.ts';
import { kindsOf } from './rules.ts';

/**
 * The one way a data-rights job finds a person's items: a walk of the whole table in bounded pages
 * (a Scan of at most PAGE_SIZE items from the recorded position). A person's items are keyed under
 * other people's posts, comments, days and lists, and their id sits in attributes no index holds
 * (an `actorId`, a `repliers` set, a tagged `@[id]` in somebody's text), so only the whole table
 * answers "everything that carries them". Background work only: never a request path
 * (docs/data-model.md, Data rights, gives its cost).
 */
export const PAGE_SIZE = 200;

export async function scanPage(
  cursor: Record<string, unknown> | null,
  limit = PAGE_SIZE,
): Promise<{ items: Item[]; next: Record<string, unknown> | null }> {
  const out = await db().send(
    new ScanCommand({
      TableName: env.tableName,
      Limit: limit,
      ConsistentRead: true,
      ...(cursor ? { ExclusiveStartKey: cursor } : {}),
    }),
  );
  return { items: (out.Items ?? []) as Item[], next: (out.LastEvaluatedKey as Record<string, unknown>) ?? null };
}

export type { Needles } from './person-match.ts';

/**
 * Whether a stored item (or any value) carries the person, exactly (person-match.ts): their id as a
 * whole value, member, key or `#` segment, or an `@[id]` token in free text; their e-mail as a whole
 * value. An item's free-text and JSON attributes are those its kind declares (rules.ts).
 */
export function carries(value: unknown, needles: Needles): boolean {
  const kind = value && typeof value === 'object' && 'entity' in value ? String((value as Item).entity) : '';
  return carriesPerson(value, needles, kindsOf(kind));
}
