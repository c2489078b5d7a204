import { describe, expect, it } from 'vitest';
import { ABSENT, entity, PRESENT } from './entity.ts';
import { ANON_ATTRIBUTE } from './keys.ts';
import type { TransactItem } from './table.ts';

/** What `entity()` derives from a declaration, without DynamoDB (the writes themselves: table.test.ts). */
interface Article {
  entity: 'Article';
  id: string;
  author: string;
  publishedAt?: string;
  views?: number;
}
const Article = entity<Article, [id: string]>({
  name: 'Article',
  key: (id) => ({ pk: `ARTICLE#${id}`, sk: 'ARTICLE' }),
  keyOf: (a) => [a.id],
  indexes: [
    { index: 'gsi1', pk: (a) => `BY#${a.author}`, sk: (a) => a.id },
    // Sparse: only published articles are in gsi2.
    { index: 'gsi2', pk: (a) => (a.publishedAt ? 'PUBLISHED' : undefined), sk: (a) => a.publishedAt },
  ],
});
const Tally = entity<{ entity: 'Tally'; count: number; late: number; closedAt?: string }, [day: string]>({
  name: 'Tally',
  key: (day) => ({ pk: `TALLY#${day}`, sk: 'TALLY' }),
  anon: true,
});

describe('entity()', () => {
  it('stores the key, the entity name and the index attributes the item is in', () => {
    expect(Article.item({ id: 'a1', author: 'u1', publishedAt: '2026-01-01' })).toEqual({
      pk: 'ARTICLE#a1',
      sk: 'ARTICLE',
      entity: 'Article',
      id: 'a1',
      author: 'u1',
      publishedAt: '2026-01-01',
      gsi1pk: 'BY#u1',
      gsi1sk: 'a1',
      gsi2pk: 'PUBLISHED',
      gsi2sk: '2026-01-01',
    });
  });

  it('leaves a sparse index out, and drops stale index attributes of a rewritten item', () => {
    const stale = { id: 'a1', author: 'u1', gsi2pk: 'PUBLISHED', gsi2sk: 'old' } as never;
    const stored = Article.item(stale);
    expect(stored).not.toHaveProperty('gsi2pk');
    expect(stored).not.toHaveProperty('gsi2sk');
    expect(Article.indexAttributes({ id: 'a1', author: 'u1' })).toEqual({
      gsi1pk: 'BY#u1',
      gsi1sk: 'a1',
      gsi2pk: undefined,
      gsi2sk: undefined,
    });
    // What an update moving it out of the sparse index writes besides its fields.
    expect(Article.indexChanges({ id: 'a1', author: 'u2' })).toEqual({
      set: { gsi1pk: 'BY#u2', gsi1sk: 'a1' },
      remove: ['gsi2pk', 'gsi2sk'],
    });
  });

  it('builds conditional puts, creates, updates, checks and deletes at the declared key', () => {
    const key = { pk: 'ARTICLE#a1', sk: 'ARTICLE' };
    expect(Article.create({ id: 'a1', author: 'u1' })).toMatchObject({ Put: { ...ABSENT, Item: { ...key } } });
    expect(Article.update(['a1'], { UpdateExpression: 'SET #v = :v' })).toEqual({
      Update: { Key: key, UpdateExpression: 'SET #v = :v' },
    });
    expect(Article.check(['a1'], PRESENT)).toEqual({ ConditionCheck: { Key: key, ...PRESENT } });
    expect(Article.remove(['a1'])).toEqual({ Delete: { Key: key } });
    expect(Article.keyOf({ id: 'a1', author: 'u1' })).toEqual(['a1']);
  });

  it('moves counters with ADD in one write and stamps the entity (and the anonymity flag) on the item', () => {
    expect(Article.add(['a1'], { views: 2 }, { mustExist: true })).toEqual({
      Update: {
        Key: { pk: 'ARTICLE#a1', sk: 'ARTICLE' },
        UpdateExpression: 'ADD #a0 :a0 SET #s0 = :s0',
        ExpressionAttributeNames: { '#a0': 'views', '#s0': 'entity' },
        ExpressionAttributeValues: { ':a0': 2, ':s0': 'Article' },
        ...PRESENT,
      },
    });
    const tally = Tally.add(['2026-01-01'], { count: 1, late: -1 }, { set: { closedAt: 'now' } }).Update!;
    expect(tally.UpdateExpression).toBe('ADD #a0 :a0, #a1 :a1 SET #s0 = :s0, #s1 = :s1, #s2 = :s2');
    expect(tally.ExpressionAttributeNames).toEqual({
      '#a0': 'count',
      '#a1': 'late',
      '#s0': 'entity',
      '#s1': ANON_ATTRIBUTE,
      '#s2': 'closedAt',
    });
    expect(tally.ExpressionAttributeValues).toEqual({ ':a0': 1, ':a1': -1, ':s0': 'Tally', ':s1': true, ':s2': 'now' });
  });

  it('stamps anon on every update of an anon entity, so an update that creates the item cannot leak it', () => {
    expect(Tally.update(['d'], { UpdateExpression: 'REMOVE late' }).Update).toMatchObject({
      UpdateExpression: 'REMOVE late SET #anonStamp = :anonStamp',
      ExpressionAttributeNames: { '#anonStamp': ANON_ATTRIBUTE },
      ExpressionAttributeValues: { ':anonStamp': true },
    });
    const parts = {
      UpdateExpression: 'ADD #c :one SET closedAt = :now',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':now': 'now' },
    };
    expect(Tally.update(['d'], parts).Update).toMatchObject({
      UpdateExpression: 'ADD #c :one SET #anonStamp = :anonStamp, closedAt = :now',
      ExpressionAttributeNames: { '#c': 'count', '#anonStamp': ANON_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ':now': 'now', ':anonStamp': true },
    });
    // Other entities' updates are left as written.
    expect(Article.update(['a1'], parts).Update?.UpdateExpression).toBe(parts.UpdateExpression);
  });

  it('gives an in-place entity no way to write it whole, and marks anon items written whole', () => {
    expect(Tally).not.toHaveProperty('put');
    expect(Tally).not.toHaveProperty('item');
    const Secret = entity<{ entity: 'Secret'; id: string }, [id: string]>({
      name: 'Secret',
      key: (id) => ({ pk: `SECRET#${id}`, sk: 'S' }),
      keyOf: (s) => [s.id],
      anon: true,
    });
    expect(Secret.item({ id: 's' })).toMatchObject({ [ANON_ATTRIBUTE]: true });
  });

  it('is the only maker of table entries (a hand-written entry does not typecheck)', () => {
    // @ts-expect-error: TransactItem is branded; only entity builders make one.
    const handWritten: TransactItem = { Put: { Item: { pk: 'X', sk: 'Y' } } };
    expect(handWritten.Put).toBeDefined();
  });
});
