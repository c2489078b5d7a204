import { AsyncLocalStorage } from 'node:async_hooks';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { IndexName, Key } from './table-definition.ts';
import { throttled } from './unavailable.ts';

/**
 * The table module's small vocabulary over the document client. Domain code writes through the
 * entities' builders (entity.ts) run by `write` or `transact`, and reads through the entities' typed
 * reads, which run these; nothing else talks to DynamoDB directly.
 */
export type Item = Record<string, any>;
type RawTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
declare const declared: unique symbol;
/**
 * A write of one item without its table name (`transact` and `write` add it). Branded: only the entity
 * builders of `entity.ts` make one, so no write addresses an item kind that is not declared.
 */
export type TransactItem = { [K in keyof RawTransactItem]?: Omit<NonNullable<RawTransactItem[K]>, 'TableName'> } & {
  readonly [declared]: true;
};

export async function getItem<T extends Item = Item>(key: Key, consistent = false): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return out.Item as T | undefined;
}

/**
 * Reads many items in as few requests as DynamoDB allows (100 keys a call); missing ones are absent.
 * `consistent` makes the reads strongly consistent (read-your-writes, at twice the capacity).
 */
export async function getMany<T extends Item = Item>(keys: Key[], consistent = false): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const unique = [...new Map(keys.map((k) => [`${k.pk}|${k.sk}`, k])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let request: Record<string, any> | undefined = {
      [tableName()]: { Keys: unique.slice(i, i + 100), ...(consistent ? { ConsistentRead: true } : {}) },
    };
    for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
      // Keys still unprocessed are not missing items: the table is throttling (503), not answering "absent".
      if (attempt >= 8) throw throttled('BatchGet: keys left unprocessed after 8 attempts');
      const out: any = await db().send(new BatchGetCommand({ RequestItems: request }));
      for (const item of out.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item as T);
      request = out.UnprocessedKeys;
      if (request && Object.keys(request).length > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
  return found;
}
export const keyString = (k: Key) => `${k.pk}|${k.sk}`;

/** Writes many items (BatchWrite, 25 a call, unprocessed ones retried): not atomic, for independent items. */
export async function putMany(items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let request: Record<string, any> | undefined = {
      [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
    };
    for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
      if (attempt >= 8) throw throttled('BatchWrite: items left unprocessed after 8 attempts');
      const out: any = await db().send(new BatchWriteCommand({ RequestItems: request }));
      request = out.UnprocessedItems;
      if (request && Object.keys(request).length > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
}

/**
 * An item a request adds to its first successful write (the admin audit log's entry, shared/audit/):
 * the generic hook by which a request scope records something in the same transaction as the request's
 * own change, while the domain code that writes stays unaware of it.
 */
export interface WriteCompanion {
  /** The item to add to this write, or undefined to leave this write alone (and wait for a later one). */
  itemFor: (items: readonly TransactItem[]) => TransactItem | undefined;
  /** The write that carried the item committed (or found it already there): nothing more is added. */
  written: () => void;
  /** Whether the item was written. */
  readonly done: boolean;
}

const companions = new AsyncLocalStorage<WriteCompanion>();

/** Runs `fn` with `companion` riding on its first successful `write` or `transact` (see WriteCompanion). */
export const withWriteCompanion = <T>(companion: WriteCompanion, fn: () => Promise<T>): Promise<T> =>
  companions.run(companion, fn);

/** The companion item this write should carry, if a scope is open and its item is not written yet. */
function companionFor(items: readonly TransactItem[]): { companion: WriteCompanion; item: TransactItem } | undefined {
  const companion = companions.getStore();
  // A transaction holds at most 100 items: a full one leaves the companion to the next write.
  if (!companion || companion.done || items.length >= 100) return undefined;
  const item = companion.itemFor(items);
  return item ? { companion, item } : undefined;
}

/**
 * One entry on its own, outside a transaction (a transaction of one costs twice the write units). An
 * update answers the item's new attributes unless `returnValues` says otherwise; a condition check has
 * nothing to write alone and is refused. Inside a write companion's scope (withWriteCompanion), the
 * first write becomes a transaction of two: the entry and the companion's item; an update's new
 * attributes are then read back (strongly consistent) after it, as a transaction answers none.
 */
export async function write(
  entry: TransactItem,
  { returnValues = 'ALL_NEW' }: { returnValues?: 'ALL_NEW' | 'NONE' } = {},
): Promise<Item | undefined> {
  if (!entry.Put && !entry.Delete && !entry.Update)
    throw new Error('write: a condition check alone writes nothing; send it in a transaction');
  if (companionFor([entry])) {
    try {
      await transact([entry]);
    } catch (err) {
      // The entry's own condition failed: answered as the single write would have.
      if (isConditionFailure(err))
        throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
      throw err;
    }
    if (entry.Update && returnValues === 'ALL_NEW') return getItem(entry.Update.Key as Key, true);
    return undefined;
  }
  const TableName = tableName();
  if (entry.Put) await db().send(new PutCommand({ TableName, ...entry.Put }));
  else if (entry.Delete) await db().send(new DeleteCommand({ TableName, ...entry.Delete }));
  else if (entry.Update) {
    const out = await db().send(new UpdateCommand({ TableName, ReturnValues: returnValues, ...entry.Update }));
    return out.Attributes;
  }
  return undefined;
}

/** True when the error is a failed condition (single write or any item of a transaction). */
export function isConditionFailure(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const name = (err as { name?: string }).name;
  if (name === 'ConditionalCheckFailedException') return true;
  if (err instanceof TransactionCanceledException || name === 'TransactionCanceledException') {
    const reasons = (err as TransactionCanceledException).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === 'ConditionalCheckFailed');
  }
  return false;
}

/** Which items of a cancelled transaction failed their condition (indexes into the request). */
export function failedConditions(err: unknown): number[] {
  const reasons = (err as TransactionCanceledException)?.CancellationReasons ?? [];
  return reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/** Attempts of a read-decide-write step before its conflict is given up, unless a caller says otherwise. */
export const CONFLICT_ATTEMPTS = 5;

/**
 * The pause before attempt `attempt + 1` of a step that lost a race: random up to an exponentially
 * growing bound (10, 20, 40… ms, at most 200), so a crowd of writers on one item does not collide again
 * in lockstep.
 */
export const conflictPause = (attempt: number) => Math.random() * Math.min(200, 10 * 2 ** attempt);

/**
 * Optimistic concurrency, the one way every read-decide-write step is retried: runs `step` again when
 * its write's condition failed (another request changed the item between the read and the write), after
 * `conflictPause`. `step` is told which attempt it is (1, 2…), so a later attempt can read again or mend
 * what made the condition fail. After `attempts` tries the condition failure is rethrown, or
 * `exhausted()` is the error to throw instead, or `fallback()` the answer (a sweep that leaves the item
 * to its next run). `final(err)` names the condition failures no new attempt can mend (rethrown at once).
 */
export async function retryOnConflict<T>(
  step: (attempt: number) => Promise<T>,
  {
    attempts = CONFLICT_ATTEMPTS,
    final,
    exhausted,
    fallback,
  }: { attempts?: number; final?: (err: unknown) => boolean } & (
    | { exhausted?: () => Error; fallback?: never }
    | { fallback: () => T; exhausted?: never }
  ) = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step(attempt);
    } catch (err) {
      if (!isConditionFailure(err) || final?.(err)) throw err;
      if (attempt >= attempts) {
        if (fallback) return fallback();
        throw exhausted ? exhausted() : err;
      }
      await new Promise((r) => setTimeout(r, conflictPause(attempt)));
    }
  }
}

/**
 * All-or-nothing writes. Transaction conflicts (another transaction on the same items) are retried
 * with backoff: they say nothing about the request, unlike a failed condition, which is rethrown.
 */
export async function transact(items: TransactItem[]): Promise<void> {
  if (items.length === 0) return;
  const extra = companionFor(items);
  const withTable = [...items, ...(extra ? [extra.item] : [])].map((it) => {
    const [kind, body] = Object.entries(it)[0] as [string, Record<string, unknown>];
    return { [kind]: { TableName: tableName(), ...body } } as RawTransactItem;
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: withTable }));
      extra?.companion.written();
      return;
    } catch (err) {
      const reasons = (err as TransactionCanceledException)?.CancellationReasons ?? [];
      const failed = failedConditions(err);
      if (extra && failed.length === 1 && failed[0] === items.length) {
        // Only the companion's own condition failed: its item is already there (an earlier attempt of
        // the same request wrote it). Recorded once: the writes go again without it.
        extra.companion.written();
        return transact(items);
      }
      const conflict =
        reasons.some((r) => r.Code === 'TransactionConflict') &&
        !reasons.some((r) => r.Code === 'ConditionalCheckFailed');
      const retryable = conflict || (err as { name?: string })?.name === 'TransactionInProgressException';
      if (!retryable || attempt >= 12) throw err;
      await new Promise((r) => setTimeout(r, Math.min(1000, 15 * 2 ** attempt) * (0.5 + Math.random())));
    }
  }
}

export interface QueryOptions {
  index?: IndexName;
  pk: string;
  /** Sort key condition: a prefix, or an inclusive range. */
  skPrefix?: string;
  /** Ranges take numbers on the numeric-sort indexes (gsi6, gsi7). */
  skBetween?: [string, string] | [number, number];
  skAfter?: string | number;
  skBefore?: string | number;
  forward?: boolean;
  filter?: Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>;
  consistent?: boolean;
}

function queryInput(o: QueryOptions): QueryCommandInput {
  const pkName = o.index ? `${o.index}pk` : 'pk';
  const skName = o.index ? `${o.index}sk` : 'sk';
  const names: Record<string, string> = { '#pk': pkName, ...(o.filter?.ExpressionAttributeNames ?? {}) };
  const values: Record<string, unknown> = { ':pk': o.pk, ...(o.filter?.ExpressionAttributeValues ?? {}) };
  let cond = '#pk = :pk';
  if (o.skPrefix !== undefined) {
    names['#sk'] = skName;
    values[':skp'] = o.skPrefix;
    cond += ' AND begins_with(#sk, :skp)';
  } else if (o.skBetween) {
    names['#sk'] = skName;
    values[':ska'] = o.skBetween[0];
    values[':skb'] = o.skBetween[1];
    cond += ' AND #sk BETWEEN :ska AND :skb';
  } else if (o.skAfter !== undefined) {
    names['#sk'] = skName;
    values[':ska'] = o.skAfter;
    cond += ' AND #sk > :ska';
  } else if (o.skBefore !== undefined) {
    names['#sk'] = skName;
    values[':skb'] = o.skBefore;
    cond += ' AND #sk < :skb';
  }
  return {
    TableName: tableName(),
    IndexName: o.index,
    KeyConditionExpression: cond,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: o.forward ?? true,
    ConsistentRead: o.index ? undefined : o.consistent,
    FilterExpression: o.filter?.FilterExpression,
  };
}

/**
 * One page of a query, with a sealed cursor bound to `scope` (defaults to index + partition + condition).
 * It asks for one item more than the page so that `nextCursor` is null exactly when nothing follows.
 * Without a filter this is one request; with one, DynamoDB may return short pages, so it reads on
 * until the page is full or the partition ends (documented per access pattern where used).
 */
export async function queryPage<T extends Item = Item>(
  o: QueryOptions & { limit: number; cursor?: string; scope?: string },
): Promise<{ items: T[]; nextCursor: string | null }> {
  const scope =
    o.scope ??
    `${o.index ?? 'table'}|${o.pk}|${o.skPrefix ?? o.skBetween?.join('..') ?? o.skAfter ?? o.skBefore ?? ''}|${o.forward ?? true}`;
  let start = decodeCursor(scope, o.cursor);
  const items: T[] = [];
  for (;;) {
    const out = await db().send(
      new QueryCommand({ ...queryInput(o), Limit: o.limit + 1 - items.length, ExclusiveStartKey: start }),
    );
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
    if (!start || items.length > o.limit) break;
  }
  if (items.length <= o.limit) return { items, nextCursor: null };
  const page = items.slice(0, o.limit);
  return { items: page, nextCursor: encodeCursor(scope, keyOf(page[page.length - 1], o.index)) };
}

/** The key attributes DynamoDB needs to resume a query after this item. */
function keyOf(item: Item, index?: IndexName): Record<string, unknown> {
  const k: Record<string, unknown> = { pk: item.pk, sk: item.sk };
  if (index) {
    k[`${index}pk`] = item[`${index}pk`];
    k[`${index}sk`] = item[`${index}sk`];
  }
  return k;
}

/**
 * Every item of a (bounded) query: for partitions whose size the data model bounds; with `max`, at most
 * that many (each request asks only for what is still missing).
 */
export async function queryAll<T extends Item = Item>(o: QueryOptions & { max?: number }): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, any> | undefined;
  do {
    const Limit = o.max === undefined ? undefined : o.max - items.length;
    const out = await db().send(new QueryCommand({ ...queryInput(o), Limit, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start && items.length < (o.max ?? Number.POSITIVE_INFINITY));
  return o.max === undefined ? items : items.slice(0, o.max);
}

/**
 * One page of a filtered query whose cost is bounded: it evaluates at most `budget` items (DynamoDB's
 * Limit counts items read before the filter) and answers at most `want` of those the filter keeps,
 * with the key to resume after the last one it answers (`next`, undefined when the query is done). A
 * page may so hold fewer than `want` items and still have a `next`.
 */
export async function queryBudgeted<T extends Item = Item>(
  o: QueryOptions & { want: number; budget: number; start?: Record<string, unknown> },
): Promise<{ items: T[]; next: Record<string, unknown> | undefined }> {
  const items: T[] = [];
  let start = o.start;
  let evaluated = 0;
  while (items.length < o.want && evaluated < o.budget) {
    const out = await db().send(
      new QueryCommand({ ...queryInput(o), Limit: o.budget - evaluated, ExclusiveStartKey: start }),
    );
    evaluated += out.ScannedCount ?? 0;
    const got = (out.Items ?? []) as T[];
    const room = o.want - items.length;
    if (got.length > room) {
      items.push(...got.slice(0, room));
      return { items, next: keyOf(items[items.length - 1], o.index) };
    }
    items.push(...got);
    start = out.LastEvaluatedKey;
    if (!start) return { items, next: undefined };
  }
  return { items, next: start };
}

/** How many items a query matches (`Select: COUNT`: DynamoDB reads them, but sends none back). */
export async function queryCount(o: QueryOptions): Promise<number> {
  let count = 0;
  let start: Record<string, any> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...queryInput(o), Select: 'COUNT', ExclusiveStartKey: start }));
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
