import { describe, expect, it } from 'vitest';
import { declarations } from '../../shared/db/entity.ts';
import { newPersonWrites, POSTS_SORT_ATTRIBUTE, projectionItems } from '../../shared/people/derived-from-person.ts';
import { DirectoryFacet, DirectoryPerson, DirectoryTerm, User, type UserFields } from '../../shared/people/entities.ts';
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

  it('stores every row, term and facet item under the key its declaration derives from the item', () => {
    const people = [
      person('a', { skills: ['TypeScript'], postCount: 3, title: 'Lead Dev', teamId: 't1' }),
      person('b', { skills: ['typescript', 'Go'], status: 'pending', location: 'Oslo' }),
      person('c', { status: 'deactivated', skills: ['Rust'], postCount: 1 }),
    ];
    const items = projectionItems(people);
    const derived = [DirectoryPerson, DirectoryTerm, DirectoryFacet] as const;
    for (const entity of derived) {
      const own = items.filter((i) => i.entity === entity.name);
      expect(own.length, entity.name).toBeGreaterThan(0);
      for (const i of own) expect({ pk: i.pk, sk: i.sk }).toEqual(entity.key(i as never));
    }
    // No shard: a deployment whose directory migrations are done has none.
    expect(items.filter((i) => String(i.pk).startsWith('DIRSHARD#'))).toEqual([]);
    // A row for everybody, with their post count; in the directory's indexes only while listed.
    const rows = new Map(items.filter((i) => i.entity === DirectoryPerson.name).map((r) => [r.id, r]));
    expect([...rows.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect([rows.get('a')!.postCount, rows.get('b')!.postCount, rows.get('c')!.postCount]).toEqual([3, 0, 1]);
    expect(rows.get('a')!.gsi6sk).toBe(3);
    expect(rows.get('c')!.gsi4pk).toBeUndefined();
    expect(rows.get('a')!.gsi4pk).toBe('DIRROWS');
    // Terms of listed people only: exact values lower-cased, `p:pending` for the pending, trigrams of the text.
    const terms = (id: string) =>
      items
        .filter((i) => i.entity === DirectoryTerm.name && i.userId === id)
        .map((t) => t.term)
        .sort();
    expect(terms('c')).toEqual([]);
    expect(terms('a')).toEqual(expect.arrayContaining(['s:typescript', 't:lead dev', 'm:t1', 'q:lea', 'q:per']));
    expect(terms('a')).not.toContain('p:pending');
    expect(terms('b')).toEqual(expect.arrayContaining(['s:typescript', 's:go', 'l:oslo', 'p:pending']));
    const facets = items.filter((i) => i.entity === DirectoryFacet.name);
    expect(facets.map((f) => [f.kind, f.value, f.people]).sort()).toEqual([
      ['location', 'Oslo', 1],
      ['skill', 'Go', 1],
      ['skill', 'TypeScript', 2],
      ['title', 'Lead Dev', 1],
    ]);
    // Every item the projection writes is of a declared entity.
    expect(items.every((i) => declarations.has(i.entity))).toBe(true);
  });
});
