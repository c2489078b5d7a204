import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../config/env.ts';
import { db } from '../db/client.ts';
import type { Item } from '../db/table.ts';

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

/** What identifies a person in stored text: their id, and their e-mail address (any case). */
export interface Needles {
  userId: string;
  email?: string;
}

/** Whether any attribute of a value (strings, lists, sets, maps, at any depth) carries the person. */
export function carries(value: unknown, needles: Needles): boolean {
  const email = needles.email?.toLowerCase();
  const visit = (v: unknown): boolean => {
    if (typeof v === 'string') return v.includes(needles.userId) || (!!email && v.toLowerCase().includes(email));
    if (Array.isArray(v)) return v.some(visit);
    if (v instanceof Set) return [...v].some(visit);
    if (v instanceof Uint8Array) return false;
    if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => visit(k) || visit(x));
    return false;
  };
  return visit(value);
}

/** The value with every occurrence of `from` replaced by `to`, in strings, list and set members and map keys. */
export function replaceEverywhere<T>(value: T, from: string, to: string, opts: { ignoreCase?: boolean } = {}): T {
  const pattern = new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), opts.ignoreCase ? 'gi' : 'g');
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(pattern, () => to);
    if (Array.isArray(v)) return v.map(visit);
    if (v instanceof Set) return new Set([...v].map(visit));
    if (v instanceof Uint8Array) return v;
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [visit(k) as string, visit(x)]));
    return v;
  };
  return visit(value) as T;
}
