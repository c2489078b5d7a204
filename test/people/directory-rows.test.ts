import { beforeAll, describe, expect, it } from 'vitest';
import { migrationDone } from '../../shared/migrations/done.ts';
import { DIRECTORY_ROWS_MIGRATION } from '../../shared/people/directory-migration-state.ts';
import { DirectoryPerson, DirectoryShard, DirectoryTerm } from '../../shared/people/entities.ts';
import { shardOf } from '../../shared/people/listing.ts';
import { uniq } from '../support/api.ts';
import { directory, expectStatus, ids, newTeam, patchMe, person, setStatus } from './helpers.ts';

/**
 * The directory's per-person forms (0.4.0): one row per person, written with every change of them, and
 * their terms (exact values and trigrams) kept in step before the change answers; through the local
 * runtime, whose migrations (0013, 0014) are done on its fresh table.
 */
const rowOf = (id: string) => DirectoryPerson.get({ id }, { consistent: true });
const termsOf = async (userId: string) =>
  (await DirectoryTerm.queryAll({ key: { userId }, consistent: true })).map((t) => t.term).sort();
const same = (a: string[], b: string[]) => expect([...a].sort()).toEqual([...b].sort());

describe('directory rows and terms', () => {
  beforeAll(async () => {
    // The runtime runs its migrations in the background as it starts (on its fresh table: at once).
    for (let i = 0; i < 120 && !(await migrationDone(DIRECTORY_ROWS_MIGRATION)); i++)
      await new Promise((r) => setTimeout(r, 250));
  });

  it('a new person has a row and terms, and no shard row (the shards are no longer written)', async () => {
    expect(await migrationDone(DIRECTORY_ROWS_MIGRATION)).toBe(true);
    const tag = uniq();
    const team = await newTeam(`Rows ${tag}`);
    const p = await person(
      { name: `Rowan ${tag}`, title: `Keeper ${tag}`, teamId: team.id },
      { profile: { skills: [`Kite ${tag}`], location: `Faro ${tag}`, bio: 'Sails.' } },
    );
    const row = await rowOf(p.id);
    expect(row).toMatchObject({
      id: p.id,
      title: `keeper ${tag}`,
      location: `faro ${tag}`,
      skills: [`kite ${tag}`],
      teamId: team.id,
      status: 'active',
      postCount: 0,
      text: `rowan ${tag}\nkeeper ${tag}\nsails.`,
    });
    const terms = await termsOf(p.id);
    expect(terms).toEqual(
      expect.arrayContaining([`s:kite ${tag}`, `t:keeper ${tag}`, `l:faro ${tag}`, `m:${team.id}`, 'q:row', 'q:ils']),
    );
    // Trigrams never span two fields ("rowan …" then "keeper …").
    expect(terms.filter((t) => t.startsWith('q:') && t.includes('\n'))).toEqual([]);
    const shard = await DirectoryShard.get({ shard: shardOf(p.id) }, { consistent: true });
    expect(shard?.[`row_${p.id}`]).toBeUndefined();
  });

  it("a profile change moves the person's row, terms and search at once, and no bystander's", async () => {
    const tag = `rb${uniq()}`;
    const team = await newTeam(`Bystanders ${tag}`);
    const shared = { title: `Diver ${tag}`, teamId: team.id };
    const a = await person(
      { ...shared, name: `Alder ${tag}` },
      { profile: { skills: ['Rope'], bio: `Old ${tag} bio` } },
    );
    const b = await person(
      { ...shared, name: `Birch ${tag}` },
      { profile: { skills: ['Rope'], bio: `Old ${tag} bio` } },
    );
    const bRow = await rowOf(b.id);
    const bTerms = await DirectoryTerm.queryAll({ key: { userId: b.id }, consistent: true });
    same(ids(await directory(a.token, { q: `old ${tag}` })), [a.id, b.id]);

    expectStatus(
      await patchMe(a, { name: `Aspen ${tag}`, bio: `New ${tag} notes`, skills: ['Knots'], location: 'Sines' }),
      200,
      'change',
    );
    // The change is searchable before its answer came back: no wait.
    same(ids(await directory(a.token, { q: `new ${tag}` })), [a.id]);
    same(ids(await directory(a.token, { q: `old ${tag}` })), [b.id]);
    same(ids(await directory(a.token, { q: `aspen ${tag}` })), [a.id]);
    expect(ids(await directory(a.token, { q: `alder ${tag}` }))).toEqual([]);
    same(ids(await directory(a.token, { team: team.id, skill: 'knots' })), [a.id]);
    same(ids(await directory(a.token, { team: team.id, skill: 'rope' })), [b.id]);
    same(ids(await directory(a.token, { role: `diver ${tag}`, location: 'SINES' })), [a.id]);
    const terms = await termsOf(a.id);
    expect(terms).toEqual(expect.arrayContaining(['s:knots', 'l:sines', 'q:asp', 'q:not']));
    expect(terms).not.toContain('s:rope');
    expect(terms).not.toContain('q:lde');
    // The bystander's row and every one of their terms are exactly as they were.
    expect(await rowOf(b.id)).toEqual(bRow);
    expect(await DirectoryTerm.queryAll({ key: { userId: b.id }, consistent: true })).toEqual(bTerms);
  });

  it('deactivation takes every term away and keeps the row out of the indexes; reactivation brings them back', async () => {
    const tag = `rd${uniq()}`;
    const p = await person({ name: `Gone ${tag}`, title: `Left ${tag}` });
    const viewer = await person();
    const before = await termsOf(p.id);
    expect(before.length).toBeGreaterThan(5);
    await setStatus(p.id, 'deactivated');
    expect(await termsOf(p.id)).toEqual([]);
    const row = await rowOf(p.id);
    expect(row?.status).toBe('deactivated');
    expect((row as Record<string, unknown> | undefined)?.gsi4pk).toBeUndefined();
    expect(ids(await directory(viewer.token, { q: `gone ${tag}` }))).toEqual([]);
    expect(ids(await directory(viewer.token, { role: `left ${tag}` }))).toEqual([]);
    await setStatus(p.id, 'active');
    expect(await termsOf(p.id)).toEqual(before);
    expect(ids(await directory(viewer.token, { q: `gone ${tag}` }))).toEqual([p.id]);
  });

  it('q of one or two characters, and q with sort=posts, walk the rows; every page in order', async () => {
    const tag = uniq();
    // Characters nobody else's text holds, so the walk's matches are known.
    const rare = 'ⱷⱸ';
    const a = await person({ name: `Ⱶone ${tag}` }, { profile: { bio: `Marked ${rare} here` } });
    const b = await person({ name: `Ⱶtwo ${tag}` }, { profile: { bio: `Also ${rare.toUpperCase()}` } });
    same(ids(await directory(a.token, { q: rare })), [a.id, b.id]);
    same(ids(await directory(a.token, { q: rare[0], limit: 1 })), [a.id, b.id]);
    const byPosts = await directory(a.token, { q: `${tag}`, sort: 'posts' });
    same(ids(byPosts), [a.id, b.id]);
    const recent = await directory(a.token, { q: `${rare}`, sort: 'recent', limit: 1 });
    expect(ids(recent)).toEqual([b.id, a.id]);
  });
});
