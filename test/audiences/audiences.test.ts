import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, newTeam, type Person, patchMe, person, setStatus } from '../people/helpers.ts';
import { admin, api, uniq } from '../support/api.ts';

/**
 * Audiences (docs/audiences.md) through the local runtime. The runtime's table holds other files'
 * people too, so every rule here is scoped by something only this file's people have (a fresh
 * manager, team or location), and asserts the exact set selected.
 */

const A = '/admin/audiences';
const sorted = (xs: string[]) => [...xs].sort();

async function adminCall(method: string, path: string, body?: unknown) {
  const a = await admin();
  return api(method, path, { token: a.token, ...(body === undefined ? {} : { body }) });
}

/** The ids a rule selects now, by its preview (count and the first page agreeing). */
async function preview(rule: unknown): Promise<string[]> {
  const body = expectStatus(await adminCall('POST', `${A}/preview`, { rule }), 200, 'preview');
  expect(body.people.length).toBe(Math.min(body.count, 20));
  return body.people.map((p: { id: string }) => p.id);
}

/** Every person of a saved audience, page by page (`limit`), checking the pages never repeat anyone. */
async function everyone(id: string, limit = 50): Promise<{ ids: string[]; pages: number; count: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let count = -1;
  do {
    const q: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const body = expectStatus(await adminCall('GET', `${A}/${id}/people${q}`), 200, 'people');
    ids.push(...body.items.map((p: { id: string }) => p.id));
    count = body.count;
    cursor = body.nextCursor;
    pages++;
  } while (cursor && pages < 50);
  expect(new Set(ids).size).toBe(ids.length);
  return { ids, pages, count };
}

/**
 * The company of the worked example: Ana leads engineering; Lee reports to her and leads in turn. Each
 * person's department, manager and location are set by a super admin (creation, the admin profile
 * route), except where a person edits their own (which must not count).
 */
interface Company {
  berlin: string;
  paris: string;
  ana: Person;
  /** engineering, Berlin, under Ana. */
  e1: Person;
  /** engineering, Berlin, under Ana, and manager of e2 and gone. */
  lee: Person;
  /** engineering, Berlin, under Lee (the chain below Ana). */
  e2: Person;
  /** engineering under Ana, but in Paris. */
  elsewhere: Person;
  /** Berlin under Ana, but in product. */
  product: Person;
  /** engineering, Berlin, under Lee: deactivated. */
  gone: Person;
  /** The company says product in Paris; they say engineering in Berlin themselves. */
  selfSaid: Person;
  /** The company says engineering in Berlin; they moved themselves to Paris. */
  selfMoved: Person;
}

async function workedExample(): Promise<Company> {
  const tag = uniq();
  const berlin = `Berlin ${tag}`;
  const paris = `Paris ${tag}`;
  const at = (location: string) => ({ profile: { location } });
  const ana = await person({ name: `Ana ${tag}`, department: 'engineering' }, { signIn: false });
  const under = (managerId: string, department: string, location: string, name: string, signIn = false) =>
    person({ name: `${name} ${tag}`, department, managerId }, { ...at(location), signIn });
  const [e1, lee, elsewhere, product, selfSaid, selfMoved] = await Promise.all([
    under(ana.id, 'engineering', berlin, 'Emil'),
    under(ana.id, 'engineering', berlin, 'Lee'),
    under(ana.id, 'engineering', paris, 'Elsa'),
    under(ana.id, 'product', berlin, 'Pia'),
    under(ana.id, 'product', paris, 'Sam', true),
    under(ana.id, 'engineering', berlin, 'Mo', true),
  ]);
  const [e2, gone] = await Promise.all([
    under(lee.id, 'engineering', berlin, 'Eva'),
    under(lee.id, 'engineering', berlin, 'Gus'),
  ]);
  await setStatus(gone.id, 'deactivated');
  // What people say about themselves: shown on their profiles, never selecting them.
  expectStatus(await patchMe(selfSaid, { department: 'engineering', location: berlin }), 200, 'self edit');
  expectStatus(await patchMe(selfMoved, { location: paris }), 200, 'self edit');
  return { berlin, paris, ana, e1, lee, e2, elsewhere, product, gone, selfSaid, selfMoved };
}

let c: Company;
beforeAll(async () => {
  c = await workedExample();
}, 120_000);

const berlinEngineersUnderAna = () => ({
  all: [{ department: 'engineering' }, { location: c.berlin }, { managerId: c.ana.id, chain: true }],
});

describe('audiences: create, read, update, delete', () => {
  it('"engineering in Berlin under Ana" selects exactly those people: saved, counted, paged, previewed alike', async () => {
    const expected = sorted([c.e1.id, c.lee.id, c.e2.id, c.selfMoved.id]);
    const created = expectStatus(
      await adminCall('POST', A, { name: `Berlin engineers ${uniq()}`, rule: berlinEngineersUnderAna() }),
      201,
      'create',
    );
    expect(created).toMatchObject({ rule: berlinEngineersUnderAna(), count: 4 });
    expect(typeof created.id).toBe('string');
    const read = expectStatus(await adminCall('GET', `${A}/${created.id}`), 200, 'get');
    expect(read).toEqual(created);

    const people = await everyone(created.id);
    expect(sorted(people.ids)).toEqual(expected);
    expect(people.count).toBe(4);
    // Not the bystander in engineering elsewhere, the Berlin person in product, the deactivated one, nor
    // the person who says engineering in Berlin about themselves.
    for (const p of [c.elsewhere, c.product, c.gone, c.selfSaid, c.ana]) expect(people.ids).not.toContain(p.id);
    // The preview of the same rule is the saved audience's people, in the same order.
    expect(await preview(berlinEngineersUnderAna())).toEqual(people.ids);
    // Directory entries, as the directory answers them.
    const page = expectStatus(await adminCall('GET', `${A}/${created.id}/people?limit=1`), 200, 'page');
    expect(Object.keys(page.items[0]).sort()).toEqual(
      [
        'bio',
        'currentWork',
        'id',
        'image',
        'joinedAt',
        'lastSeenAt',
        'location',
        'name',
        'postCount',
        'presence',
        'skills',
        'status',
        'team',
        'title',
      ].sort(),
    );
  });

  it('renames and changes the rule (count recomputed), lists by name in pages, deletes (then 404)', async () => {
    const tag = uniq();
    const made = await Promise.all(
      ['b', 'a', 'c'].map(async (letter) =>
        expectStatus(
          await adminCall('POST', A, { name: `List ${tag} ${letter}`, rule: { userIds: [c.e1.id] } }),
          201,
          'create',
        ),
      ),
    );
    expect(made.map((m) => m.count)).toEqual([1, 1, 1]);
    const target = made[0];
    const renamed = expectStatus(
      await adminCall('PATCH', `${A}/${target.id}`, { name: `List ${tag} d` }),
      200,
      'rename',
    );
    expect(renamed).toMatchObject({ name: `List ${tag} d`, rule: { userIds: [c.e1.id] }, count: 1 });
    const changed = expectStatus(
      await adminCall('PATCH', `${A}/${target.id}`, { rule: { managerId: c.lee.id } }),
      200,
      'rule',
    );
    expect(changed).toMatchObject({ name: `List ${tag} d`, rule: { managerId: c.lee.id }, count: 1 });
    expect(changed.updatedAt >= renamed.updatedAt).toBe(true);
    expect(expectStatus(await adminCall('GET', `${A}/${target.id}`), 200, 'get')).toEqual(changed);
    expect((await everyone(target.id)).ids).toEqual([c.e2.id]);

    // The list, two at a time: every page in name order, ours among them in order a, c, d.
    const seen: { id: string; name: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const body = expectStatus(await adminCall('GET', `${A}${q}`), 200, 'list');
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...body.items);
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 500);
    expect(cursor).toBeNull();
    expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
    expect(seen.filter((s) => s.name.startsWith(`List ${tag} `)).map((s) => s.name)).toEqual(
      ['a', 'c', 'd'].map((l) => `List ${tag} ${l}`),
    );

    expect((await adminCall('DELETE', `${A}/${target.id}`)).status).toBe(204);
    for (const [method, path, body] of [
      ['GET', `${A}/${target.id}`],
      ['GET', `${A}/${target.id}/people`],
      ['PATCH', `${A}/${target.id}`, { name: 'x' }],
      ['DELETE', `${A}/${target.id}`],
    ] as const) {
      const res = await adminCall(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(res.body).toMatchObject({ statusCode: 404, message: 'No such audience.' });
    }
  });

  it('answers 404 for ids that never existed', async () => {
    const unknown = `nope-${uniq()}`;
    expect((await adminCall('GET', `${A}/${unknown}`)).status).toBe(404);
    expect((await adminCall('GET', `${A}/${unknown}/people`)).status).toBe(404);
    expect((await adminCall('PATCH', `${A}/${unknown}`, { rule: { role: 'member' } })).status).toBe(404);
    expect((await adminCall('DELETE', `${A}/${unknown}`)).status).toBe(404);
  });

  it('pages the people with a cursor bound to its audience', async () => {
    const everybodyUnderAna = expectStatus(
      await adminCall('POST', A, { name: `Ana's org ${uniq()}`, rule: { managerId: c.ana.id, chain: true } }),
      201,
      'create',
    );
    const all = [c.e1, c.lee, c.e2, c.elsewhere, c.product, c.selfSaid, c.selfMoved].map((p) => p.id);
    expect(everybodyUnderAna.count).toBe(7);
    const whole = await everyone(everybodyUnderAna.id, 50);
    expect(whole.pages).toBe(1);
    const byThree = await everyone(everybodyUnderAna.id, 3);
    expect(byThree.pages).toBe(3);
    expect(byThree.ids).toEqual(whole.ids);
    expect(sorted(whole.ids)).toEqual(sorted(all));
    // A cursor of this audience does not open another one; a forged one is refused.
    const first = expectStatus(await adminCall('GET', `${A}/${everybodyUnderAna.id}/people?limit=3`), 200, 'page');
    const other = expectStatus(
      await adminCall('POST', A, { name: `Other ${uniq()}`, rule: { managerId: c.ana.id, chain: true } }),
      201,
      'create',
    );
    const cursor = encodeURIComponent(first.nextCursor);
    expect((await adminCall('GET', `${A}/${other.id}/people?cursor=${cursor}`)).status).toBe(400);
    expect((await adminCall('GET', `${A}/${everybodyUnderAna.id}/people?cursor=abc`)).status).toBe(400);
  });
});

describe('audiences: each kind of rule', () => {
  const under = (rule: unknown) => ({ all: [{ managerId: c.ana.id, chain: true }, rule] });

  it('department, location, role and userIds select by what the company set, never a deactivated person', async () => {
    expect(sorted(await preview(under({ department: 'product' })))).toEqual(sorted([c.product.id, c.selfSaid.id]));
    expect(sorted(await preview({ location: c.berlin }))).toEqual(
      sorted([c.e1.id, c.lee.id, c.e2.id, c.product.id, c.selfMoved.id]),
    );
    expect(sorted(await preview({ location: c.paris }))).toEqual(sorted([c.elsewhere.id, c.selfSaid.id]));
    // Exact: another case or a prefix selects nobody.
    expect(await preview({ location: c.berlin.toUpperCase() })).toEqual([]);
    expect(sorted(await preview(under({ role: 'member' })))).toHaveLength(7);
    const a = await admin();
    expectStatus(
      await api('PATCH', `/admin/members/${c.elsewhere.id}/role`, { token: a.token, body: { role: 'super_admin' } }),
      200,
      'promote',
    );
    try {
      expect(await preview(under({ role: 'super_admin' }))).toEqual([c.elsewhere.id]);
    } finally {
      await api('PATCH', `/admin/members/${c.elsewhere.id}/role`, { token: a.token, body: { role: 'member' } });
    }
    expect(sorted(await preview({ userIds: [c.e1.id, c.gone.id, c.elsewhere.id] }))).toEqual(
      sorted([c.e1.id, c.elsewhere.id]),
    );
  });

  it('managerId: the direct reports, or with chain everybody below', async () => {
    expect(sorted(await preview({ managerId: c.lee.id }))).toEqual([c.e2.id]);
    expect(sorted(await preview({ managerId: c.ana.id }))).toEqual(
      sorted([c.e1.id, c.lee.id, c.elsewhere.id, c.product.id, c.selfSaid.id, c.selfMoved.id]),
    );
    expect(await preview({ managerId: c.ana.id, chain: true })).toHaveLength(7);
    expect(await preview({ managerId: c.e1.id, chain: true })).toEqual([]);
  });

  it('teamId and scimGroup: the people the company put on the team, not one who joined by themselves', async () => {
    const team = await newTeam(`Platform ${uniq()}`);
    const [t1, t2] = await Promise.all([
      person({ teamId: team.id }, { signIn: false }),
      person({ teamId: team.id }, { signIn: false }),
    ]);
    const joiner = await person();
    expectStatus(await patchMe(joiner, { teamId: team.id }), 200, 'join');
    const movedByAdmin = await person();
    expectStatus(await adminCall('PATCH', `/people/${movedByAdmin.id}/profile`, { teamId: team.id }), 200, 'move');
    const expected = sorted([t1.id, t2.id, movedByAdmin.id]);
    expect(sorted(await preview({ teamId: team.id }))).toEqual(expected);
    // A SCIM Group is a team (docs/scim.md): by its displayName, case-insensitively.
    expect(sorted(await preview({ scimGroup: team.name.toUpperCase() }))).toEqual(expected);
    // Deleted, the team selects nobody (a saved audience keeps its rule).
    const saved = expectStatus(await adminCall('POST', A, { name: `Team ${uniq()}`, rule: { teamId: team.id } }), 201);
    expect(saved.count).toBe(3);
    expectStatus(await adminCall('DELETE', `/teams/${team.id}`), 200, 'delete team');
    expect((await everyone(saved.id)).ids).toEqual([]);
  });

  it('all, any and not combine', async () => {
    expect(sorted(await preview(under({ not: { department: 'engineering' } })))).toEqual(
      sorted([c.product.id, c.selfSaid.id]),
    );
    expect(sorted(await preview({ any: [{ userIds: [c.e1.id] }, { location: c.paris }] }))).toEqual(
      sorted([c.e1.id, c.elsewhere.id, c.selfSaid.id]),
    );
    expect(
      sorted(
        await preview({
          all: [
            { managerId: c.ana.id, chain: true },
            { not: { any: [{ location: c.berlin }, { location: c.paris }] } },
          ],
        }),
      ),
    ).toEqual([]);
    // `not` never brings back a deactivated person.
    expect(await preview({ all: [{ managerId: c.lee.id, chain: true }, { not: { userIds: [c.e2.id] } }] })).toEqual([]);
  });
});

describe('audiences: refusals', () => {
  it('answers 400 in the common error body, naming where a rule is wrong', async () => {
    const refused = async (body: unknown, pattern: RegExp, path = A) => {
      const res = await adminCall('POST', path, body);
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      const message = [res.body.message].flat().join(' | ');
      expect(message).toMatch(pattern);
    };
    const name = 'Refused';
    await refused({ name }, /^rule: must be an object/);
    await refused({ name, rule: {} }, /^rule: must have one of/);
    await refused({ name, rule: { department: 'marketing' } }, /^rule\.department: must be one of/);
    await refused({ name, rule: { all: [{ role: 'owner' }] } }, /^rule\.all\.0\.role: must be one of/);
    await refused({ name, rule: { department: 'engineering', location: 'Berlin' } }, /exactly one of/);
    await refused({ name, rule: { all: [] } }, /^rule\.all: must be a non-empty list/);
    await refused({ name, rule: { not: 5 } }, /^rule\.not: must be an object/);
    await refused({ name, rule: { managerId: c.ana.id, chain: 'yes' } }, /^rule\.chain: must be true or false/);
    await refused({ name, rule: { location: ' Berlin' } }, /^rule\.location: must not begin or end with blanks/);
    await refused({ name, rule: { role: 'member', extra: 1 } }, /unknown field: extra/);
    let deep: unknown = { role: 'member' };
    for (let i = 0; i < 8; i++) deep = { not: deep };
    await refused({ name, rule: deep }, /at most 8 levels/);
    await refused(
      { name, rule: { any: Array.from({ length: 100 }, () => ({ role: 'member' })) } },
      /at most 100 nodes/,
    );
    await refused({ name, rule: { userIds: Array.from({ length: 1001 }, (_, i) => `u${i}`) } }, /at most 1000 people/);
    // References to nobody, on create and preview alike.
    await refused({ name, rule: { teamId: `no-team-${uniq()}` } }, /^rule: no such team/);
    await refused({ rule: { scimGroup: `No group ${uniq()}` } }, /^rule: no such SCIM group/, `${A}/preview`);
    await refused({ rule: { managerId: `nobody-${uniq()}` } }, /^rule: no such manager/, `${A}/preview`);
    await refused({ name, rule: { userIds: [c.e1.id, `nobody-${uniq()}`] } }, /^rule: no such person: nobody-/);
    await refused({ name: '  ', rule: { role: 'member' } }, /^name:/);
    // A PATCH is checked the same way.
    const made = expectStatus(await adminCall('POST', A, { name: `Ok ${uniq()}`, rule: { role: 'member' } }), 201);
    const res = await adminCall('PATCH', `${A}/${made.id}`, { rule: { all: [{ department: 'nope' }] } });
    expect(res.status).toBe(400);
    expect([res.body.message].flat().join()).toMatch(/rule\.all\.0\.department/);
  });

  it('answers 403 to a member on every audience route', async () => {
    const member = await person();
    const made = expectStatus(await adminCall('POST', A, { name: `Seen ${uniq()}`, rule: { role: 'member' } }), 201);
    for (const [method, path, body] of [
      ['GET', A],
      ['POST', A, { name: 'x', rule: { role: 'member' } }],
      ['POST', `${A}/preview`, { rule: { role: 'member' } }],
      ['GET', `${A}/${made.id}`],
      ['PATCH', `${A}/${made.id}`, { name: 'x' }],
      ['DELETE', `${A}/${made.id}`],
      ['GET', `${A}/${made.id}/people`],
    ] as const) {
      const res = await api(method, path, { token: member.token, ...(body ? { body } : {}) });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect((await adminCall('GET', `${A}/${made.id}`)).status).toBe(200);
  });
});
