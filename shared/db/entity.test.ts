import { describe, expect, it } from 'vitest';
import { ABSENT, entity, keyOnly, PRESENT, shape } from './entity.ts';
import type { TransactItem } from './table.ts';
import { ANON_ATTRIBUTE } from './table-definition.ts';

/** What `entity()` derives from a declaration, without DynamoDB (the writes themselves: table.test.ts). */
const Article = entity({
  name: 'Article',
  fields: shape<{ id: string; author: string; publishedAt?: string; views?: number }>(),
  key: { pk: ['ARTICLE', 'id'], sk: ['ARTICLE'] },
  indexes: {
    byAuthor: { index: 'gsi1', pk: ['BY', 'author'], sk: ['id'] },
    // Sparse: only published articles are in gsi2.
    published: { index: 'gsi2', pk: ['PUBLISHED'], sk: ['publishedAt'], when: (a) => !!a.publishedAt },
  },
});
const Tally = entity({
  name: 'Tally',
  fields: shape<{ count: number; late: number; closedAt?: string }>(),
  keyOnly: keyOnly<{ day: string }>('day'),
  key: { pk: ['TALLY', 'day'], sk: ['TALLY'] },
  inPlace: true,
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
    // An update moving it out of the sparse index removes those attributes (`change`: declared-entity.test.ts).
    expect(Article.indexAttributes({ id: 'a1', author: 'u2' })).toMatchObject({ gsi2pk: undefined, gsi2sk: undefined });
  });

  it('builds conditional puts, creates, updates, checks and deletes at the declared key', () => {
    const key = { pk: 'ARTICLE#a1', sk: 'ARTICLE' };
    expect(Article.create({ id: 'a1', author: 'u1' })).toMatchObject({ Put: { ...ABSENT, Item: { ...key } } });
    expect(Article.update({ id: 'a1' }, { UpdateExpression: 'SET #v = :v' })).toEqual({
      Update: { Key: key, UpdateExpression: 'SET #v = :v' },
    });
    expect(Article.check({ id: 'a1' }, PRESENT)).toEqual({ ConditionCheck: { Key: key, ...PRESENT } });
    expect(Article.remove({ id: 'a1' })).toEqual({ Delete: { Key: key } });
  });

  it('moves counters with ADD in one write and stamps the entity (and the anonymity flag) on the item', () => {
    expect(Article.add({ id: 'a1' }, { views: 2 }, { mustExist: true })).toEqual({
      Update: {
        Key: { pk: 'ARTICLE#a1', sk: 'ARTICLE' },
        UpdateExpression: 'ADD #a0 :a0 SET #s0 = :s0',
        ExpressionAttributeNames: { '#a0': 'views', '#s0': 'entity' },
        ExpressionAttributeValues: { ':a0': 2, ':s0': 'Article' },
        ...PRESENT,
      },
    });
    const tally = Tally.add({ day: '2026-01-01' }, { count: 1, late: -1 }, { set: { closedAt: 'now' } }).Update!;
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
    expect(Tally.update({ day: 'd' }, { UpdateExpression: 'REMOVE late' }).Update).toMatchObject({
      UpdateExpression: 'REMOVE late SET #anonStamp = :anonStamp',
      ExpressionAttributeNames: { '#anonStamp': ANON_ATTRIBUTE },
      ExpressionAttributeValues: { ':anonStamp': true },
    });
    const parts = {
      UpdateExpression: 'ADD #c :one SET closedAt = :now',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':now': 'now' },
    };
    expect(Tally.update({ day: 'd' }, parts).Update).toMatchObject({
      UpdateExpression: 'ADD #c :one SET #anonStamp = :anonStamp, closedAt = :now',
      ExpressionAttributeNames: { '#c': 'count', '#anonStamp': ANON_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ':now': 'now', ':anonStamp': true },
    });
    // Other entities' updates are left as written.
    expect(Article.update({ id: 'a1' }, parts).Update?.UpdateExpression).toBe(parts.UpdateExpression);
  });

  it('marks anon items written whole', () => {
    const Secret = entity({
      name: 'Secret',
      fields: shape<{ id: string }>(),
      key: { pk: ['SECRET', 'id'], sk: ['S'] },
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
