import { describe, expect, it } from 'vitest';
import { declarations } from '../../shared/db/entity.ts';
import { newPersonWrites, POSTS_SORT_ATTRIBUTE, projectionItems } from '../../shared/people/derived-from-person.ts';
import {
  DirectoryFacet,
  DirectoryShard,
  DirectoryShardPosts,
  User,
  type UserFields,
} from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';

/** What the people area writes whole is built by its entity declarations: keys, `entity` and index attributes. */
const person = (id: string, fields: Partial<UserFields> = {}): UserFields => ({
  ...blankProfile(),
  id,
  name: `Person ${id}`,
  email: `${id}@example.com`,
  role: 'member',
  status: 'active',
  joinedAt: '2024-01-01T00:00:00.000Z',
  title: '',
  location: '',
  skills: [],
  ...fields,
});

describe('the people projection, from the declarations', () => {
  it("gives a new person the posts index's sort key from User's declaration: their post count", () => {
    const { item } = newPersonWrites(person('p1'), { actorId: null });
    expect((item as Record<string, unknown>)[POSTS_SORT_ATTRIBUTE]).toBe(0);
    expect(User.indexAttributes(person('p2', { postCount: 7 }))[POSTS_SORT_ATTRIBUTE]).toBe(7);
  });

  it('stores every shard and facet item under the key its declaration derives from the item', () => {
    const people = [
      person('a', { skills: ['TypeScript'], postCount: 3 }),
      person('b', { skills: ['typescript', 'Go'] }),
      person('c', { status: 'deactivated', skills: ['Rust'], postCount: 1 }),
    ];
    const items = projectionItems(people);
    const derived = [DirectoryShard, DirectoryShardPosts, DirectoryFacet] as const;
    for (const entity of derived) {
      const own = items.filter((i) => i.entity === entity.name);
      expect(own.length, entity.name).toBeGreaterThan(0);
      for (const i of own) expect({ pk: i.pk, sk: i.sk }).toEqual(entity.key(i as never));
    }
    // Rows only of listed people, post counts of everybody; a facet counted once per person, case-insensitively.
    const rows = items.filter((i) => i.entity === DirectoryShard.name).flatMap((i) => Object.keys(i));
    expect(rows.filter((a) => a.startsWith('row_')).sort()).toEqual(['row_a', 'row_b']);
    const counts = Object.assign({}, ...items.filter((i) => i.entity === DirectoryShardPosts.name));
    expect([counts.posts_a, counts.posts_b, counts.posts_c]).toEqual([3, 0, 1]);
    const facets = items.filter((i) => i.entity === DirectoryFacet.name);
    expect(facets.map((f) => [f.kind, f.value, f.people]).sort()).toEqual([
      ['skill', 'Go', 1],
      ['skill', 'TypeScript', 2],
    ]);
    // Every item the projection writes is of a declared entity.
    expect(items.every((i) => declarations.has(i.entity))).toBe(true);
  });
});
