import { describe, expect, it } from 'vitest';
import { admin, api } from '../support/api.ts';
import { expectStatus, type Person, patchMe, person, setStatus } from './helpers.ts';

const me = async (p: Person) => expectStatus(await api('GET', '/users/me/profile', { token: p.token }), 200, 'profile');

describe('profiles: managers', () => {
  it('refuses oneself as manager and any chain that would loop; nothing changes', async () => {
    const [a, b, c] = [await person(), await person(), await person()];
    expect((await patchMe(a, { managerId: a.id })).status).toBe(400);
    expectStatus(await patchMe(a, { managerId: b.id }), 200, 'a → b');
    expectStatus(await patchMe(b, { managerId: c.id }), 200, 'b → c');
    expect((await patchMe(b, { managerId: a.id })).status).toBe(400);
    expect((await patchMe(c, { managerId: a.id, title: 'not applied' })).status).toBe(400);
    expect((await me(c)).manager).toBeNull();
    expect((await me(c)).title).not.toBe('not applied');
    expect((await me(b)).manager?.id).toBe(c.id);
  });

  it('two people naming each other at the same moment never both succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = [await person(), await person()];
      const [ra, rb] = await Promise.all([patchMe(a, { managerId: b.id }), patchMe(b, { managerId: a.id })]);
      expect([ra.status, rb.status].sort()).toEqual([200, 400]);
    }
  });

  it('reportCount follows 30 concurrent reports, their deactivation and a change of manager', async () => {
    const boss = await person();
    const other = await person();
    const reports = await Promise.all(Array.from({ length: 30 }, () => person()));
    const answers = await Promise.all(reports.map((r) => patchMe(r, { managerId: boss.id })));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect((await me(boss)).reportCount).toBe(30);
    await setStatus(reports[0].id, 'deactivated');
    expect((await me(boss)).reportCount).toBe(29);
    await Promise.all(reports.slice(1, 11).map((r) => patchMe(r, { managerId: other.id })));
    expect((await me(boss)).reportCount).toBe(19);
    expect((await me(other)).reportCount).toBe(10);
    await setStatus(reports[0].id, 'active');
    expect((await me(boss)).reportCount).toBe(20);
  });
});

describe('profiles: field rules', () => {
  it('dates must name real days; dateOfBirth not in the future; empty string clears', async () => {
    const p = await person();
    for (const dateOfBirth of ['2023-02-30', '1990-13-01', '1990-1-1', '2999-01-01', 'yesterday']) {
      expect((await patchMe(p, { dateOfBirth })).status, dateOfBirth).toBe(400);
    }
    expect(expectStatus(await patchMe(p, { dateOfBirth: '2000-02-29' }), 200, 'leap day').dateOfBirth).toBe(
      '2000-02-29',
    );
    expect(expectStatus(await patchMe(p, { dateOfBirth: '' }), 200, 'clear').dateOfBirth).toBeNull();
    const a = await admin();
    expect(
      (await api('PATCH', `/people/${p.id}/profile`, { token: a.token, body: { joinedOn: '2021-02-29' } })).status,
    ).toBe(400);
    expect(
      expectStatus(
        await api('PATCH', `/people/${p.id}/profile`, { token: a.token, body: { joinedOn: '' } }),
        200,
        'clear',
      ).joinedOn,
    ).toBeNull();
  });

  it('lists are trimmed and de-duplicated; a project sent back keeps its id', async () => {
    const p = await person();
    const set = expectStatus(
      await patchMe(p, { skills: [' Go ', 'go', 'SQL', '  '], hobbies: ['Chess', 'chess'] }),
      200,
      'lists',
    );
    expect(set.skills).toEqual(['Go', 'SQL']);
    expect(set.hobbies).toEqual(['Chess']);
    const first = expectStatus(
      await patchMe(p, {
        projects: [{ name: 'Apollo', startedAt: '2020-01-01', endedAt: '2021-01-01' }, { name: 'Gemini' }],
      }),
      200,
      'projects',
    );
    const [apollo, gemini] = first.projects;
    expect(apollo.status).toBe('completed');
    expect(gemini.status).toBe('in_progress');
    const again = expectStatus(
      await patchMe(p, { projects: [{ ...apollo, name: 'Apollo 2' }, { name: 'Mercury' }] }),
      200,
      'resend',
    );
    expect(again.projects[0]).toMatchObject({ id: apollo.id, name: 'Apollo 2' });
    expect(again.projects[1].id).not.toBe(gemini.id);
    for (const project of [
      { name: 'x', link: 'ftp://example.com' },
      { name: 'x', link: 'javascript:alert(1)' },
      { name: 'x', startedAt: '2021-01-01', endedAt: '2020-01-01' },
      { name: '   ' },
      { name: 'x', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      { name: 'x', contributions: ['c'.repeat(201)] },
    ]) {
      expect((await patchMe(p, { projects: [project] })).status, JSON.stringify(project)).toBe(400);
    }
  });

  it('names cannot be blank; image and other fields cannot be set through the profile', async () => {
    const p = await person();
    for (const body of [
      { name: '' },
      { name: '   ' },
      { image: '/api/v1/files/avatars/x.webp' },
      { email: 'x@example.com' },
      { role: 'super_admin' },
      { skills: 'Go' },
    ]) {
      expect((await patchMe(p, body)).status, JSON.stringify(body)).toBe(400);
    }
    const profile = await me(p);
    expect(profile.role).toBe('member');
    expect(profile.name).toBe(p.name);
  });

  it('PATCH /people/{id}/profile: 403 for members before the lookup, 404 for nobody', async () => {
    const p = await person();
    const a = await admin();
    expect(
      (
        await api('PATCH', '/people/00000000-0000-4000-8000-000000000000/profile', {
          token: p.token,
          body: { title: 'x' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api('PATCH', '/people/00000000-0000-4000-8000-000000000000/profile', {
          token: a.token,
          body: { title: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});
