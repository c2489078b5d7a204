import { describe, expect, expectTypeOf, it } from 'vitest';
import { type EntityFields, type EntityItem, type EntityKey, entity, keyOnly, PRESENT, shape } from './entity.ts';
import { ANON_ATTRIBUTE } from './table-definition.ts';

/** What a template declaration derives, without DynamoDB (the reads themselves: table.test.ts). */
const pad = (n: number) => String(n).padStart(4, '0');
const Article = entity({
  name: 'Article',
  fields: shape<{ id: string; author: string; move: number; publishedAt?: string; views?: number; topic: string }>(),
  key: { pk: ['ARTICLE', 'id'], sk: ['MOVE', { field: 'move', as: pad }] },
  indexes: {
    byAuthor: { index: 'gsi1', pk: ['BY', 'author'], sk: ['id'] },
    // Sparse: only published articles are in gsi2.
    published: { index: 'gsi2', pk: [(a) => (a.publishedAt ? 'PUBLISHED' : undefined)], sk: ['publishedAt'] },
    byViews: { index: 'gsi6', pk: ['VIEWS'], sk: ['views'] },
  },
  legacy: ['topic'],
});
const Session = entity({
  name: 'Session',
  fields: shape<{ userId: string; expiresAt: number }>(),
  keyOnly: keyOnly<{ tokenHash: string }>('tokenHash'),
  key: { pk: ['SESSION', 'tokenHash'], sk: ['SESSION'] },
  anon: true,
});

describe('entity() with templates', () => {
  it('derives the item type, the write fields and the key fields from the declaration', () => {
    type A = EntityItem<typeof Article>;
    expectTypeOf<A['entity']>().toEqualTypeOf<'Article'>();
    expectTypeOf<A['pk']>().toEqualTypeOf<string>();
    // A legacy field is optional when read, required when written.
    expectTypeOf<A['topic']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<EntityFields<typeof Article>['topic']>().toEqualTypeOf<string>();
    expectTypeOf<EntityKey<typeof Article>>().toEqualTypeOf<{ id: string; move: number }>();
    // A key-only composite addresses the item but is not a field of it.
    expectTypeOf<EntityKey<typeof Session>>().toEqualTypeOf<{ tokenHash: string }>();
    expectTypeOf<EntityItem<typeof Session>>().toEqualTypeOf<{
      pk: string;
      sk: string;
      entity: 'Session';
      userId: string;
      expiresAt: number;
    }>();
  });

  it('stores the key from its templates, the entity name and the index attributes the item is in', () => {
    expect(Article.item({ id: 'a1', author: 'u1', move: 7, publishedAt: '2026-01-01', views: 3, topic: 't' })).toEqual({
      pk: 'ARTICLE#a1',
      sk: 'MOVE#0007',
      entity: 'Article',
      id: 'a1',
      author: 'u1',
      move: 7,
      publishedAt: '2026-01-01',
      views: 3,
      topic: 't',
      gsi1pk: 'BY#u1',
      gsi1sk: 'a1',
      gsi2pk: 'PUBLISHED',
      gsi2sk: '2026-01-01',
      gsi6pk: 'VIEWS',
      // One field: its value as it is (a number on a numeric-sort index).
      gsi6sk: 3,
    });
    expect(Article.key({ id: 'a1', move: 12 })).toEqual({ pk: 'ARTICLE#a1', sk: 'MOVE#0012' });
  });

  it('keeps key-only composites out of the stored item and stamps anon', () => {
    expect(Session.item({ tokenHash: 'h', userId: 'u', expiresAt: 1 })).toEqual({
      pk: 'SESSION#h',
      sk: 'SESSION',
      entity: 'Session',
      userId: 'u',
      expiresAt: 1,
      [ANON_ATTRIBUTE]: true,
    });
    expect(Session.remove({ tokenHash: 'h' }, PRESENT)).toEqual({
      Delete: { Key: { pk: 'SESSION#h', sk: 'SESSION' }, ...PRESENT },
    });
  });

  it('changes an item in place: the fields that differ, the ones dropped and its index moves', () => {
    const before = Article.item({ id: 'a1', author: 'u1', move: 1, publishedAt: 'p', views: 2, topic: 't' });
    const { publishedAt: _dropped, ...rest } = before;
    const change = Article.change(before, { ...rest, topic: 't', author: 'u2' }, PRESENT).Update!;
    expect(change.Key).toEqual({ pk: 'ARTICLE#a1', sk: 'MOVE#0001' });
    expect(change.ConditionExpression).toBe(PRESENT.ConditionExpression);
    const names = change.ExpressionAttributeNames!;
    const values = change.ExpressionAttributeValues!;
    const [setClause, removeClause] = change.UpdateExpression!.split(' REMOVE ');
    const setPairs = Object.fromEntries(
      setClause
        .replace(/^SET /, '')
        .split(', ')
        .map((pair) => pair.split(' = '))
        .map(([n, v]) => [names[n], values[v]]),
    );
    expect(setPairs).toEqual({ author: 'u2', gsi1pk: 'BY#u2' });
    expect(removeClause.split(', ').map((n) => names[n])).toEqual(['publishedAt', 'gsi2pk', 'gsi2sk']);
  });

  it('answers a read of another entity as none, and a shared partition by `is`', () => {
    expect(Article.is({ entity: 'Article' })).toBe(true);
    expect(Article.is({ entity: 'Session' })).toBe(false);
    expect(Article.is(undefined)).toBe(false);
  });
});
