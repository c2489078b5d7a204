import { describe, expect, inject, it } from 'vitest';
import { admin, api, newMember, PASSWORD, signIn, uniq } from '../support/api.ts';

/**
 * SCIM Users and Groups through the local runtime, played as Entra ID's and Okta's provisioning
 * clients send them (docs/scim.md), checking the member, the team, the org chart and the sessions
 * after each step through the service's own routes.
 */

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const scimToken = () => inject('localEnv').SCIM_TOKEN!;
const scim = (method: string, path: string, body?: unknown) =>
  api(method, `/api/v1/scim/v2${path}`, { token: scimToken(), body });
const q = (s: string) => encodeURIComponent(s);
const patch = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

/** A user as Entra ID's default attribute mappings send it. */
const entraUser = (tag: string, extra: Record<string, unknown> = {}) => ({
  schemas: [CORE, ENTERPRISE],
  externalId: `entra-${tag}`,
  userName: `scim-${tag}@example.com`,
  active: true,
  displayName: `Scim ${tag}`,
  title: 'Engineer',
  emails: [{ primary: true, type: 'work', value: `scim-${tag}@example.com` }],
  name: { formatted: `Scim ${tag}`, familyName: tag, givenName: 'Scim' },
  [ENTERPRISE]: { department: 'Engineering' },
  ...extra,
});

const person = async (id: string) => {
  const { token } = await admin();
  const res = await api('GET', `/people/${id}`, { token });
  expect(res.status).toBe(200);
  return res.body;
};
const member = async (id: string) => {
  const { token } = await admin();
  const res = await api('GET', '/admin/members', { token });
  return res.body.find((m: any) => m.id === id);
};
/** Polls until `check` holds (whole lists follow their documents in the background, within seconds). */
async function eventually(check: () => Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition did not hold in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}
const inOrgChart = async (id: string, managerId: string | null) => {
  const { token } = await admin();
  const res = await api('GET', '/org-chart', { token });
  const node = res.body.find((n: any) => n.id === id);
  return !!node && (node.managerId ?? null) === managerId;
};
/** The member signs in with a password a super admin sets (a provisioned member has none anyone knows). */
async function sessionOf(id: string, email: string) {
  const { token } = await admin();
  expect((await api('PATCH', `/admin/members/${id}/password`, { token, body: { password: PASSWORD } })).status).toBe(
    200,
  );
  return (await signIn(email, PASSWORD)).token;
}

describe('SCIM Users and Groups', () => {
  it("plays Entra ID's provisioning cycle", { timeout: 120_000 }, async () => {
    const tag = uniq();
    const body = entraUser(tag);
    // The connection test: a query for somebody unknown answers an empty list.
    const probe = await scim('GET', `/Users?filter=${q(`userName eq "nobody-${tag}@example.com"`)}`);
    expect(probe.status).toBe(200);
    expect(probe.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(probe.body).toMatchObject({ totalResults: 0, Resources: [] });

    // Create.
    const created = await scim('POST', '/Users', body);
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      userName: body.userName,
      externalId: body.externalId,
      active: true,
      displayName: body.displayName,
      title: 'Engineer',
      name: { givenName: 'Scim', familyName: tag },
      [ENTERPRISE]: { department: 'Engineering' },
      meta: { resourceType: 'User' },
    });
    expect(created.body.meta.location).toMatch(new RegExp(`/api/v1/scim/v2/Users/${id}$`));
    expect(await person(id)).toMatchObject({ name: body.displayName, title: 'Engineer', department: 'engineering' });
    expect(await member(id)).toMatchObject({ status: 'pending', role: 'member', email: body.userName });
    // A retry of the same create: 409 uniqueness, nothing more made.
    const again = await scim('POST', '/Users', body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: '409', scimType: 'uniqueness' });

    // Find by userName, by externalId, by both.
    for (const filter of [
      `userName eq "${body.userName}"`,
      `externalId eq "${body.externalId}"`,
      `userName eq "${body.userName.toUpperCase()}" and externalId eq "${body.externalId}"`,
    ]) {
      const found = await scim('GET', `/Users?filter=${q(filter)}`);
      expect(found.status, filter).toBe(200);
      expect(found.body.totalResults, filter).toBe(1);
      expect(found.body.Resources[0].id, filter).toBe(id);
    }
    const mismatch = await scim(
      'GET',
      `/Users?filter=${q(`userName eq "${body.userName}" and externalId eq "other"`)}`,
    );
    expect(mismatch.body.totalResults).toBe(0);
    expect((await scim('GET', `/Users?filter=${q('displayName co "x"')}`)).body).toMatchObject({
      status: '400',
      scimType: 'invalidFilter',
    });

    // Update, as Entra sends it: capitalised ops, with a path.
    const updated = await scim(
      'PATCH',
      `/Users/${id}`,
      patch(
        { op: 'Replace', path: 'title', value: 'Staff Engineer' },
        { op: 'Replace', path: 'displayName', value: `Scim ${tag} Renamed` },
        { op: 'Add', path: 'addresses[type eq "work"].country', value: 'NL' },
      ),
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Staff Engineer', displayName: `Scim ${tag} Renamed` });
    expect(await person(id)).toMatchObject({ title: 'Staff Engineer', name: `Scim ${tag} Renamed` });

    // Manager: another provisioned user, named through the enterprise extension.
    const boss = await scim('POST', '/Users', entraUser(`${tag}b`));
    expect(boss.status).toBe(201);
    const managed = await scim(
      'PATCH',
      `/Users/${id}`,
      patch({ op: 'Add', path: `${ENTERPRISE}:manager`, value: boss.body.id }),
    );
    expect(managed.status).toBe(200);
    expect(managed.body[ENTERPRISE].manager).toEqual({ value: boss.body.id });
    expect((await person(id)).manager?.id).toBe(boss.body.id);
    await eventually(() => inOrgChart(id, boss.body.id));
    expect(
      (await scim('PATCH', `/Users/${id}`, patch({ op: 'Add', path: `${ENTERPRISE}:manager`, value: 'nobody' }))).body,
    ).toMatchObject({ status: '400', scimType: 'invalidValue' });

    // Deactivate by PATCH active "False" (a string, as Entra sends it): the session ends.
    const session = await sessionOf(id, body.userName);
    expect((await api('GET', '/users/me/profile', { token: session })).status).toBe(200);
    const off = await scim('PATCH', `/Users/${id}`, patch({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await member(id)).status).toBe('deactivated');
    expect((await api('GET', '/users/me/profile', { token: session })).status).toBe(401);
    expect(
      (await api('POST', '/auth/sign-in/email', { body: { email: body.userName, password: PASSWORD } })).status,
    ).not.toBe(200);
    await eventually(async () => !(await inOrgChart(id, boss.body.id)));

    // Reactivate, without a path.
    const on = await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', value: { active: true } }));
    expect(on.body.active).toBe(true);
    expect((await member(id)).status).toBe('active');
    expect((await signIn(body.userName, PASSWORD)).token).toBeTruthy();

    // Groups: create, add, a second group moves the person, remove, delete.
    const groupName = `Scim team ${tag}`;
    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: groupName, members: [] });
    expect(group.status).toBe(201);
    const gid = group.body.id as string;
    const { token } = await admin();
    expect((await api('GET', '/teams', { token })).body.some((t: any) => t.id === gid && t.name === groupName)).toBe(
      true,
    );
    const byName = await scim('GET', `/Groups?filter=${q(`displayName eq "${groupName}"`)}&excludedAttributes=members`);
    expect(byName.body.totalResults).toBe(1);
    expect(byName.body.Resources[0]).toMatchObject({ id: gid, displayName: groupName });
    expect(byName.body.Resources[0].members).toBeUndefined();
    expect(
      (await scim('POST', '/Groups', { schemas: [GROUP], displayName: groupName.toUpperCase() })).body,
    ).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });

    const added = await scim('PATCH', `/Groups/${gid}`, patch({ op: 'Add', path: 'members', value: [{ value: id }] }));
    expect(added.status).toBe(200);
    expect(added.body.members.map((m: any) => m.value)).toEqual([id]);
    expect((await person(id)).team?.id).toBe(gid);
    expect((await api('GET', '/teams', { token })).body.find((t: any) => t.id === gid).memberCount).toBe(1);

    const second = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: `Scim second ${tag}`,
      members: [{ value: id }],
    });
    expect(second.status).toBe(201);
    expect((await person(id)).team?.id).toBe(second.body.id);
    expect((await scim('GET', `/Groups/${gid}`)).body.members).toEqual([]);
    // Removing them from the group they left changes nothing; from the one they are on, unassigns them.
    await scim('PATCH', `/Groups/${gid}`, patch({ op: 'Remove', path: `members[value eq "${id}"]` }));
    expect((await person(id)).team?.id).toBe(second.body.id);
    await scim('PATCH', `/Groups/${second.body.id}`, patch({ op: 'Remove', path: `members[value eq "${id}"]` }));
    expect((await person(id)).team).toBeNull();

    expect((await scim('DELETE', `/Groups/${gid}`)).status).toBe(204);
    expect((await scim('GET', `/Groups/${gid}`)).status).toBe(404);
    expect((await api('GET', '/teams', { token })).body.some((t: any) => t.id === gid)).toBe(false);
    expect((await scim('DELETE', `/Groups/${second.body.id}`)).status).toBe(204);

    // Delete the user: deactivated, the User gone; a later POST links the member again.
    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);
    expect((await scim('GET', `/Users?filter=${q(`userName eq "${body.userName}"`)}`)).body.totalResults).toBe(0);
    expect((await member(id)).status).toBe('deactivated');
    const relinked = await scim('POST', '/Users', body);
    expect(relinked.status).toBe(201);
    expect(relinked.body.id).toBe(id);
    expect((await member(id)).status).toBe('active');
  });

  it("plays Okta's: a first page, a create after a filter, a PUT", { timeout: 60_000 }, async () => {
    const tag = uniq();
    const userName = `okta-${tag}@example.com`;
    const first = await scim('GET', '/Users?startIndex=1&count=2');
    expect(first.status).toBe(200);
    expect(first.body.startIndex).toBe(1);
    expect(first.body.itemsPerPage).toBeLessThanOrEqual(2);
    expect(first.body.Resources.length).toBe(first.body.itemsPerPage);

    expect((await scim('GET', `/Users?filter=${q(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
    const okta = {
      schemas: [CORE],
      userName,
      name: { givenName: 'Okta', familyName: tag },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: `Okta ${tag}`,
      locale: 'en-US',
      externalId: `00u${tag}`,
      groups: [],
      password: 'ignored-by-the-service',
      active: true,
    };
    const created = await scim('POST', '/Users', okta);
    expect(created.status).toBe(201);
    const id = created.body.id;

    const put = await scim('PUT', `/Users/${id}`, {
      ...okta,
      id,
      title: 'Designer',
      [ENTERPRISE]: { department: 'Design' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: 'Designer', [ENTERPRISE]: { department: 'Design' } });
    expect(await person(id)).toMatchObject({ title: 'Designer', department: 'design', name: `Okta ${tag}` });
    // A PUT leaves out what it clears.
    const cleared = await scim('PUT', `/Users/${id}`, okta);
    expect(cleared.body.title).toBeUndefined();
    expect(await person(id)).toMatchObject({ title: '', department: '' });

    // Every page from 1 to the total holds each User once, this one among them.
    const total = (await scim('GET', '/Users?count=0')).body.totalResults as number;
    const seen: string[] = [];
    for (let start = 1; start <= total; start += 100) {
      const page = await scim('GET', `/Users?startIndex=${start}&count=100`);
      seen.push(...page.body.Resources.map((r: any) => r.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(id);
  });

  it("plays Okta's Group push: create, rename without a path, members added and removed", {
    timeout: 60_000,
  }, async () => {
    const tag = uniq();
    const { token } = await admin();
    const user = await scim('POST', '/Users', entraUser(`okta-${tag}`));
    const created = await scim('POST', '/Groups', { schemas: [GROUP], displayName: `Okta push ${tag}`, members: [] });
    expect(created.status).toBe(201);
    const gid = created.body.id as string;
    expect((await scim('GET', `/Groups?startIndex=1&count=100`)).body.Resources.map((g: any) => g.id)).toContain(gid);

    // Okta renames with the Group's id and new name as a value without a path (the id is read-only).
    const renamed = await scim(
      'PATCH',
      `/Groups/${gid}`,
      patch({ op: 'replace', value: { id: gid, displayName: `Okta push ${tag} renamed` } }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: gid, displayName: `Okta push ${tag} renamed` });
    expect((await api('GET', '/teams', { token })).body.find((t: any) => t.id === gid)?.name).toBe(
      `Okta push ${tag} renamed`,
    );

    const added = await scim(
      'PATCH',
      `/Groups/${gid}`,
      patch({ op: 'add', path: 'members', value: [{ value: user.body.id, display: user.body.userName }] }),
    );
    expect(added.body.members.map((m: any) => m.value)).toEqual([user.body.id]);
    expect((await person(user.body.id)).team?.id).toBe(gid);
    // Attribute selection is accepted wherever a resource is answered (RFC 7644 §3.9).
    const lean = await scim('GET', `/Groups/${gid}?excludedAttributes=members`);
    expect(lean.body).toMatchObject({ id: gid });
    expect(lean.body.members).toBeUndefined();
    const one = await scim('GET', `/Users/${user.body.id}?attributes=${q('userName,active')}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: user.body.id, userName: user.body.userName, active: true });
    const removed = await scim(
      'PATCH',
      `/Groups/${gid}?excludedAttributes=members`,
      patch({ op: 'remove', path: `members[value eq "${user.body.id}"]` }),
    );
    expect(removed.status).toBe(200);
    expect(removed.body.members).toBeUndefined();
    expect((await person(user.body.id)).team).toBeNull();
    expect((await scim('DELETE', `/Groups/${gid}`)).status).toBe(204);
  });

  it('changes a group of several members at once, its count exact', { timeout: 90_000 }, async () => {
    const tag = uniq();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await scim('POST', '/Users', entraUser(`${tag}m${i}`))).body.id);
    const group = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: `Scim crowd ${tag}`,
      members: ids.map((value) => ({ value })),
    });
    expect(group.status).toBe(201);
    expect(group.body.members.map((m: any) => m.value).sort()).toEqual([...ids].sort());
    const { token } = await admin();
    const count = async () =>
      (await api('GET', '/teams', { token })).body.find((t: any) => t.id === group.body.id).memberCount;
    expect(await count()).toBe(6);
    const kept = ids.slice(0, 2);
    const replaced = await scim(
      'PATCH',
      `/Groups/${group.body.id}`,
      patch({ op: 'replace', path: 'members', value: kept.map((value) => ({ value })) }),
    );
    expect(replaced.body.members.map((m: any) => m.value).sort()).toEqual([...kept].sort());
    expect(await count()).toBe(2);
    for (const id of ids.slice(2)) expect((await person(id)).team).toBeNull();
    const put = await scim('PUT', `/Groups/${group.body.id}`, {
      schemas: [GROUP],
      displayName: `Scim crowd ${tag} renamed`,
      members: [],
    });
    expect(put.body).toMatchObject({ displayName: `Scim crowd ${tag} renamed`, members: [] });
    expect(await count()).toBe(0);
  });

  it('leaves bystanders alone: a person with the same name, title and department is not touched', {
    timeout: 60_000,
  }, async () => {
    const tag = uniq();
    const bystander = await newMember({ title: 'Engineer', department: 'engineering' });
    const before = await person(bystander.id);
    const created = await scim('POST', '/Users', entraUser(tag, { displayName: bystander.name }));
    const id = created.body.id;
    await scim('PATCH', `/Users/${id}`, patch({ op: 'Replace', path: 'active', value: false }));
    await scim('DELETE', `/Users/${id}`);
    expect(await person(bystander.id)).toEqual(before);
    expect((await member(bystander.id)).status).toBe('active');
    expect((await api('GET', '/users/me/profile', { token: bystander.token })).status).toBe(200);
    // A member a super admin made is no User until the provider creates it.
    expect((await scim('GET', `/Users/${bystander.id}`)).status).toBe(404);
    expect((await scim('GET', `/Users?filter=${q(`userName eq "${bystander.email}"`)}`)).body.totalResults).toBe(0);
  });

  it('follows a rename of the sign-in address, and never takes somebody else’s', { timeout: 60_000 }, async () => {
    const tag = uniq();
    const created = await scim('POST', '/Users', entraUser(tag));
    const other = await scim('POST', '/Users', entraUser(`${tag}-other`));
    const [id, before] = [created.body.id, created.body.userName];
    const token = await sessionOf(id, before);
    const otherBefore = await person(other.body.id);

    // Entra ID, after a change of UPN and mail: the address moves; the session and the User stay.
    const renamed = `Renamed-${tag}@Example.com`;
    const moved = await scim(
      'PATCH',
      `/Users/${id}`,
      patch(
        { op: 'Replace', path: 'userName', value: renamed },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: renamed },
      ),
    );
    expect(moved.status).toBe(200);
    const after = renamed.toLowerCase();
    expect(moved.body).toMatchObject({ id, userName: after, emails: [{ value: after, primary: true }] });
    expect((await member(id)).email).toBe(after);
    expect((await api('GET', '/users/me/profile', { token })).status).toBe(200);
    expect((await api('GET', '/auth/get-session', { token })).body.user).toMatchObject({ id, email: after });
    expect((await scim('GET', `/Users?filter=${q(`userName eq "${renamed}"`)}`)).body.Resources).toMatchObject([
      { id },
    ]);
    expect((await scim('GET', `/Users?filter=${q(`userName eq "${before}"`)}`)).body.totalResults).toBe(0);
    expect((await signIn(after, PASSWORD)).user.id).toBe(id);
    expect((await api('POST', '/auth/sign-in/email', { body: { email: before, password: PASSWORD } })).status).toBe(
      401,
    );

    // Another member's address: 409, and neither of them changes.
    const clash = await scim('PUT', `/Users/${id}`, entraUser(tag, { userName: other.body.userName }));
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await member(id)).email).toBe(after);
    expect(await person(other.body.id)).toEqual(otherBefore);
    const othersClaim = await scim('GET', `/Users?filter=${q(`userName eq "${other.body.userName}"`)}`);
    expect(othersClaim.body.Resources).toMatchObject([{ id: other.body.id }]);

    // The old address is free: the provider's next person may have it.
    const successor = await scim('POST', '/Users', entraUser(`${tag}-next`, { userName: before }));
    expect(successor.status).toBe(201);
    expect(successor.body.id).not.toBe(id);
    expect((await member(id)).email).toBe(after);
  });

  it('refuses input in SCIM error bodies and never grants super admin', async () => {
    const tag = uniq();
    const bad = await scim('POST', '/Users', { schemas: [CORE], userName: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      scimType: 'invalidValue',
    });
    const created = await scim('POST', '/Users', entraUser(tag, { roles: [{ value: 'super_admin' }] }));
    expect(created.status).toBe(201);
    expect((await member(created.body.id)).role).toBe('member');
    const unknownOp = await scim(
      'PATCH',
      `/Users/${created.body.id}`,
      patch({ op: 'move', path: 'title', value: 'x' }),
    );
    expect(unknownOp.status).toBe(400);
    const noAddress = await scim(
      'PATCH',
      `/Users/${created.body.id}`,
      patch({ op: 'replace', path: 'userName', value: 'x' }),
    );
    expect(noAddress.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect((await member(created.body.id)).email).toBe(created.body.userName);
    expect((await scim('GET', '/Users/does-not-exist')).body).toMatchObject({ status: '404' });
    // Input the route table refuses before the route runs is answered in SCIM's body too.
    const unknownParameter = await scim('GET', '/Users?sortBy=userName');
    expect(unknownParameter.status).toBe(400);
    expect(unknownParameter.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(unknownParameter.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '400',
    });
    expect((await scim('POST', '/Users', ['not', 'an', 'object'])).body).toMatchObject({ status: '400' });
    expect((await api('GET', '/api/v1/scim/v2/Users'.replace('/api/v1', ''), { token: 'wrong' })).status).toBe(401);
  });
});
