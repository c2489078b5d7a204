import { describe, expect, it } from 'vitest';
import { admin, api, uniq } from '../support/api.ts';
import { directory, expectStatus, ids, newTeam, type Person, patchMe, person, setStatus, teamById } from './helpers.ts';

const people = (n: number, extra: Record<string, unknown> = {}) =>
  Promise.all(Array.from({ length: n }, () => person(extra)));

describe('teams: memberCount under concurrency', () => {
  it('50 people joining at once count 50; moving and leaving at once keep both teams exact', async () => {
    const [a, b] = [await newTeam(), await newTeam()];
    const crowd: Person[] = await people(50);
    const joined = await Promise.all(crowd.map((p) => patchMe(p, { teamId: a.id })));
    expect(joined.map((r) => r.status)).toEqual(crowd.map(() => 200));
    expect((await teamById(a.id)).memberCount).toBe(50);
    await Promise.all(crowd.map((p, i) => patchMe(p, { teamId: i % 2 ? b.id : null })));
    expect((await teamById(a.id)).memberCount).toBe(0);
    expect((await teamById(b.id)).memberCount).toBe(25);
    same(
      ids(await directory(crowd[0].token, { team: b.id })),
      crowd.filter((_, i) => i % 2).map((p) => p.id),
    );
  });

  it('counts active and pending people: deactivation and reactivation move the count', async () => {
    const team = await newTeam();
    const [p1, p2] = await people(2, { teamId: team.id });
    await person({ teamId: team.id }, { signIn: false });
    expect((await teamById(team.id)).memberCount).toBe(3);
    await Promise.all([setStatus(p1.id, 'deactivated'), setStatus(p2.id, 'deactivated')]);
    expect((await teamById(team.id)).memberCount).toBe(1);
    await setStatus(p1.id, 'active');
    expect((await teamById(team.id)).memberCount).toBe(2);
    // A deactivated person moved by a super admin: no count moves, the membership does.
    const a = await admin();
    const other = await newTeam();
    expectStatus(
      await api('PATCH', `/people/${p2.id}/profile`, { token: a.token, body: { teamId: other.id } }),
      200,
      'move',
    );
    expect((await teamById(team.id)).memberCount).toBe(2);
    expect((await teamById(other.id)).memberCount).toBe(0);
  });

  it('of many concurrent creations with one name (any case), exactly one wins', async () => {
    const a = await admin();
    const name = `Race ${uniq()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('POST', '/teams', { token: a.token, body: { name: i % 2 ? name.toUpperCase() : name } }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(9);
  });
});

describe('teams: names and deletion', () => {
  it('a rename frees the old name and takes the new one; trimmed names; blank names are 400', async () => {
    const a = await admin();
    const tag = uniq();
    const t = await newTeam(`First ${tag}`);
    expectStatus(
      await api('PATCH', `/teams/${t.id}`, { token: a.token, body: { name: `  Second ${tag} ` } }),
      200,
      'rename',
    );
    expect((await teamById(t.id)).name).toBe(`Second ${tag}`);
    expectStatus(
      await api('POST', '/teams', { token: a.token, body: { name: `first ${tag}` } }),
      201,
      'old name is free',
    );
    expect((await api('POST', '/teams', { token: a.token, body: { name: `SECOND ${tag}` } })).status).toBe(409);
    expectStatus(
      await api('PATCH', `/teams/${t.id}`, { token: a.token, body: { name: `SECOND ${tag}` } }),
      200,
      'own name in another case',
    );
    for (const body of [{ name: '' }, { name: '   ' }, { name: 'x', extra: 1 }, { color: 'magenta' }]) {
      expect((await api('POST', '/teams', { token: a.token, body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('deleting unassigns everybody on the team (any status), and the team takes nobody afterwards', async () => {
    const a = await admin();
    const team = await newTeam();
    const [active] = await people(1, { teamId: team.id });
    const pending = await person({ teamId: team.id }, { signIn: false });
    const gone = await person({ teamId: team.id });
    await setStatus(gone.id, 'deactivated');
    const removed = expectStatus(await api('DELETE', `/teams/${team.id}`, { token: a.token }), 200, 'delete');
    expect(removed).toEqual({ id: team.id, unassigned: 3 });
    for (const p of [active, pending, gone]) {
      expect(expectStatus(await api('GET', `/people/${p.id}`, { token: a.token }), 200, 'profile').team).toBeNull();
    }
    expect(await directory(active.token, { team: team.id })).toEqual([]);
    expect(await teamById(team.id)).toBeUndefined();
    expect((await patchMe(active, { teamId: team.id })).status).toBe(400);
    expect((await api('DELETE', `/teams/${team.id}`, { token: a.token })).status).toBe(404);
    expect((await api('PATCH', `/teams/${team.id}`, { token: a.token, body: { color: 'blue' } })).status).toBe(404);
    expect(
      (
        await api('POST', '/admin/members', {
          token: a.token,
          body: { name: 'Late', email: `late-${uniq()}@example.com`, password: 'test-password-1', teamId: team.id },
        })
      ).status,
    ).toBe(400);
  });
});

function same(a: string[], b: string[]) {
  expect([...a].sort()).toEqual([...b].sort());
}
