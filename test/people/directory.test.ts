import { describe, expect, it } from 'vitest';
import { transact } from '../../shared/db/table.ts';
import { postCountWrites } from '../../shared/people/post-count.ts';
import { admin, api, uniq } from '../support/api.ts';
import { directory, expectStatus, ids, newTeam, patchMe, person, setStatus } from './helpers.ts';

const posts = async (userId: string, n: number) => transact(await postCountWrites(userId, n));
const same = (a: string[], b: string[]) => expect([...a].sort()).toEqual([...b].sort());

describe('directory: free text', () => {
  it('q is a case-insensitive substring of name, title or bio, not of skills or location', async () => {
    const tag = `zq${uniq()}`;
    const byName = await person({ name: `Ann${tag}ette Smith` });
    const byTitle = await person({ title: `Head of ${tag.toUpperCase()}` });
    const byBio = await person({}, { profile: { bio: `Builds boats; ${tag}-curious.` } });
    const bySkill = await person({}, { profile: { skills: [tag], location: tag } });
    const found = ids(await directory(byName.token, { q: tag.slice(1).toUpperCase() }));
    same(found, [byName.id, byTitle.id, byBio.id]);
    expect(found).not.toContain(bySkill.id);
    expect(await directory(byName.token, { q: `${tag}-nobody` })).toEqual([]);
  });

  it('a rename shows at once: the new name matches, the old one no longer does', async () => {
    const tag = `rn${uniq()}`;
    const p = await person({ name: `Before${tag}` });
    expectStatus(await patchMe(p, { name: `After${tag}` }), 200, 'rename');
    expect(ids(await directory(p.token, { q: `before${tag}` }))).toEqual([]);
    const [entry] = await directory(p.token, { q: `after${tag}` });
    expect(entry).toMatchObject({ id: p.id, name: `After${tag}` });
    expect((await api('POST', '/auth/update-user', { token: p.token, body: { name: `Third${tag}` } })).status).toBe(
      200,
    );
    expect(ids(await directory(p.token, { q: `third${tag}` }))).toEqual([p.id]);
  });
});

describe('directory: filters', () => {
  it('skill, role, location and team match exactly (ignoring case) and combine with AND', async () => {
    const tag = uniq();
    const [x, y] = [await newTeam(`X ${tag}`), await newTeam(`Y ${tag}`)];
    const A = await person(
      { title: `Analyst ${tag}`, teamId: x.id },
      { profile: { skills: [`Go ${tag}`, 'SQL'], location: `Porto ${tag}` } },
    );
    const B = await person(
      { title: `Designer ${tag}`, teamId: x.id },
      { profile: { skills: [`go ${tag}`], location: `Lisbon ${tag}` } },
    );
    const C = await person(
      { title: `analyst ${tag}`, teamId: y.id },
      { profile: { skills: [`Rust ${tag}`], location: `porto ${tag}` } },
    );
    const t = A.token;
    same(ids(await directory(t, { skill: `GO ${tag}` })), [A.id, B.id]);
    same(ids(await directory(t, { role: `ANALYST ${tag}` })), [A.id, C.id]);
    same(ids(await directory(t, { location: `Porto ${tag}` })), [A.id, C.id]);
    same(ids(await directory(t, { team: x.id })), [A.id, B.id]);
    same(ids(await directory(t, { team: x.id, location: `porto ${tag}` })), [A.id]);
    same(ids(await directory(t, { skill: `go ${tag}`, role: `designer ${tag}`, team: x.id, q: 'person' })), [B.id]);
    expect(await directory(t, { skill: `rust ${tag}`, team: x.id })).toEqual([]);
    expect(await directory(t, { skill: `go` })).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ id: A.id })]),
    );
  });

  it('status separates active and pending people; deactivated people are never listed', async () => {
    const T = `Status ${uniq()}`;
    const active = await person({ title: T });
    const pending = await person({ title: T }, { signIn: false });
    const gone = await person({ title: T });
    await setStatus(gone.id, 'deactivated');
    same(ids(await directory(active.token, { role: T })), [active.id, pending.id]);
    same(ids(await directory(active.token, { role: T, status: 'active' })), [active.id]);
    same(ids(await directory(active.token, { role: T, status: 'pending' })), [pending.id]);
    expect((await api('GET', '/people?status=deactivated', { token: active.token })).status).toBe(400);
    const all = ids(await directory(active.token));
    expect(all).toContain(active.id);
    expect(all).not.toContain(gone.id);
  });

  it('a first sign-in moves a pending person to active in the status filter', async () => {
    const T = `Signin ${uniq()}`;
    const p = await person({ title: T }, { signIn: false });
    const viewer = await person();
    same(ids(await directory(viewer.token, { role: T, status: 'pending' })), [p.id]);
    expectStatus(
      await api('POST', '/auth/sign-in/email', { body: { email: p.email, password: 'test-password-1' } }),
      200,
      'sign in',
    );
    same(ids(await directory(viewer.token, { role: T, status: 'active' })), [p.id]);
    expect(await directory(viewer.token, { role: T, status: 'pending' })).toEqual([]);
  });

  it('rejects unknown parameters, unknown sorts and bad limits', async () => {
    const p = await person();
    for (const qs of [
      'mine=true',
      'sort=popular',
      'status=deactivated',
      'limit=0',
      'limit=-1',
      'limit=abc',
      'q=a&q=b',
    ]) {
      expect((await api('GET', `/people?${qs}`, { token: p.token })).status, qs).toBe(400);
    }
    const page = expectStatus(await api('GET', '/people?limit=500', { token: p.token }), 200, 'limit clamps');
    expect(page.items.length).toBeLessThanOrEqual(50);
  });
});

describe('directory: sorts and paging', () => {
  it('sorts by name ignoring case and accents, by newest joinedAt, and by most posts (filtered and unfiltered)', async () => {
    const tag = uniq();
    const T = `Sorted ${tag}`;
    const c = await person({ title: T, name: `charlie ${tag}` });
    const a = await person({ title: T, name: `Álvaro ${tag}` });
    const b = await person({ title: T, name: `Bravo ${tag}` });
    expect(ids(await directory(a.token, { role: T }))).toEqual([a.id, b.id, c.id]);
    expect(ids(await directory(a.token, { role: T, sort: 'recent' }))).toEqual([b.id, a.id, c.id]);
    await posts(c.id, 3);
    await posts(a.id, 1);
    const byPosts = await directory(a.token, { role: T, sort: 'posts' });
    expect(ids(byPosts)).toEqual([c.id, a.id, b.id]);
    expect(byPosts.map((e) => e.postCount)).toEqual([3, 1, 0]);
    // The unfiltered sorts read the profile indexes: the same relative order, every page in order.
    const everyone = await directory(a.token, { sort: 'posts' });
    expect(ids(everyone).filter((id) => [a.id, b.id, c.id].includes(id))).toEqual([c.id, a.id, b.id]);
    const counts = everyone.map((e) => e.postCount);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    const byName = await directory(a.token);
    expect(ids(byName).filter((id) => [a.id, b.id, c.id].includes(id))).toEqual([a.id, b.id, c.id]);
    const recent = await directory(a.token, { sort: 'recent' });
    const times = recent.map((e) => Date.parse(e.joinedAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('pages one entry at a time without repeats on both access paths, and cursors belong to their query', async () => {
    const T = `Paged ${uniq()}`;
    const people = [];
    for (let i = 0; i < 4; i++) people.push(await person({ title: T }));
    const t = people[0].token;
    for (const sort of ['name', 'recent', 'posts']) {
      const one = await directory(t, { role: T, sort, limit: 1 });
      same(ids(one), ids(people));
    }
    const first = expectStatus(
      await api('GET', `/people?role=${encodeURIComponent(T)}&limit=2`, { token: t }),
      200,
      'page 1',
    );
    expect(first.items).toHaveLength(2);
    expect((await api('GET', `/people?role=other&limit=2&cursor=${first.nextCursor}`, { token: t })).status).toBe(400);
    expect((await api('GET', `/people?limit=2&cursor=${first.nextCursor}`, { token: t })).status).toBe(400);
    expect((await api('GET', '/people?cursor=not-a-cursor', { token: t })).status).toBe(400);
    const unfiltered = expectStatus(await api('GET', '/people?limit=1', { token: t }), 200, 'unfiltered');
    const next = expectStatus(
      await api('GET', `/people?limit=1&cursor=${unfiltered.nextCursor}`, { token: t }),
      200,
      'unfiltered page 2',
    );
    expect(next.items[0].id).not.toBe(unfiltered.items[0].id);
  });
});

describe('directory: what embeds a person follows them', () => {
  it('team renames, team changes and manager changes show in entries and the org chart on the next read', async () => {
    const a = await admin();
    const tag = uniq();
    const team = await newTeam(`Old ${tag}`, 'cyan');
    const boss = await person({ name: `Boss ${tag}` });
    const p = await person({ name: `Member ${tag}`, teamId: team.id, managerId: boss.id });
    expectStatus(
      await api('PATCH', `/teams/${team.id}`, { token: a.token, body: { name: `New ${tag}`, color: 'rose' } }),
      200,
      'rename',
    );
    const [entry] = await directory(p.token, { q: `member ${tag}` });
    expect(entry.team).toEqual({ id: team.id, name: `New ${tag}`, color: 'rose' });
    let chart = expectStatus(await api('GET', '/org-chart', { token: p.token }), 200, 'org chart');
    expect(chart.find((n: any) => n.id === p.id)?.managerId).toBe(boss.id);
    expectStatus(await patchMe(boss, { name: `Chief ${tag}` }), 200, 'boss rename');
    chart = expectStatus(await api('GET', '/org-chart', { token: p.token }), 200, 'org chart');
    expect(chart.find((n: any) => n.id === boss.id)?.name).toBe(`Chief ${tag}`);
    expect((await api('GET', '/users/me/profile', { token: p.token })).body.manager).toMatchObject({
      id: boss.id,
      name: `Chief ${tag}`,
    });
    // A deactivated manager leaves the chart; their reports become roots instead of dangling.
    await setStatus(boss.id, 'deactivated');
    chart = expectStatus(await api('GET', '/org-chart', { token: p.token }), 200, 'org chart');
    expect(chart.some((n: any) => n.id === boss.id)).toBe(false);
    expect(chart.find((n: any) => n.id === p.id)?.managerId).toBeNull();
  });

  it('skills and facets list listed people only, de-duplicated case-insensitively, sorted', async () => {
    const tag = uniq();
    const a = await person(
      { title: `Facet ${tag}` },
      { profile: { skills: [`beta-${tag}`, `Alpha-${tag}`], location: `Town ${tag}` } },
    );
    const b = await person(
      { title: `FACET ${tag}` },
      { profile: { skills: [`ALPHA-${tag}`], location: `town ${tag}` } },
    );
    const only = await person({}, { profile: { skills: [`solo-${tag}`], location: `Solo ${tag}` } });
    const skills: string[] = expectStatus(await api('GET', '/people/skills', { token: a.token }), 200, 'skills');
    const mine = skills.filter((s) => s.toLowerCase().endsWith(tag));
    expect(mine.map((s) => s.toLowerCase())).toEqual([`alpha-${tag}`, `beta-${tag}`, `solo-${tag}`]);
    await setStatus(only.id, 'deactivated');
    const facets = expectStatus(await api('GET', '/people/facets', { token: a.token }), 200, 'facets');
    expect(
      facets.skills.filter((s: string) => s.toLowerCase().endsWith(tag)).map((s: string) => s.toLowerCase()),
    ).toEqual([`alpha-${tag}`, `beta-${tag}`]);
    expect(facets.titles.filter((s: string) => s.toLowerCase() === `facet ${tag}`)).toHaveLength(1);
    expect(
      facets.locations.filter((s: string) => s.toLowerCase().endsWith(tag)).map((s: string) => s.toLowerCase()),
    ).toEqual([`town ${tag}`]);
    // Taking the skill away from one holder keeps it while another still has it.
    expectStatus(await patchMe(b, { skills: [] }), 200, 'drop skills');
    const after: string[] = expectStatus(await api('GET', '/people/skills', { token: a.token }), 200, 'skills');
    expect(after.filter((s) => s.toLowerCase() === `alpha-${tag}`)).toHaveLength(1);
    expectStatus(await patchMe(a, { skills: [] }), 200, 'drop skills');
    const none: string[] = expectStatus(await api('GET', '/people/skills', { token: a.token }), 200, 'skills');
    expect(none.filter((s) => s.toLowerCase().endsWith(tag))).toEqual([]);
  });
});
