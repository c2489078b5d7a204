import { afterEach, describe, expect, inject, it } from 'vitest';
import { getUser } from '../../shared/people/users.ts';
import { patchUser } from '../../shared/scim/users.ts';
import { api, uniq } from '../support/api.ts';

// The break-glass address (docs/sso.md) with this worker's settings, on the SCIM domain functions (the
// local runtime keeps its own settings: no break-glass address there).

const saved = process.env.SSO_BREAK_GLASS_EMAIL;
afterEach(() => {
  if (saved === undefined) delete process.env.SSO_BREAK_GLASS_EMAIL;
  else process.env.SSO_BREAK_GLASS_EMAIL = saved;
});

const scim = (method: string, path: string, body?: unknown) =>
  api(method, `/api/v1/scim/v2${path}`, { token: inject('localEnv').SCIM_TOKEN!, body });
const rename = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op: 'Replace', path: 'userName', value: userName }],
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: { status?: number; scimType?: string }) => ({ status: err.status, scimType: err.scimType }),
  );

describe('SCIM and the break-glass account', () => {
  it('never moves the break-glass address, away from its account or onto another one', async () => {
    const tag = uniq();
    const glass = await scim('POST', '/Users', { userName: `glass-${tag}@example.com`, displayName: 'Glass' });
    const other = await scim('POST', '/Users', { userName: `other-${tag}@example.com`, displayName: 'Other' });
    expect([glass.status, other.status]).toEqual([201, 201]);
    process.env.SSO_BREAK_GLASS_EMAIL = `Glass-${tag}@Example.com`;

    expect(await refusal(patchUser(glass.body.id, rename(`moved-${tag}@example.com`)))).toEqual({
      status: 400,
      scimType: 'mutability',
    });
    // Onto another account: the address is free once nobody holds it, and still refused.
    process.env.SSO_BREAK_GLASS_EMAIL = `free-${tag}@example.com`;
    expect(await refusal(patchUser(other.body.id, rename(`free-${tag}@example.com`)))).toEqual({
      status: 400,
      scimType: 'mutability',
    });
    expect((await getUser(glass.body.id, true))?.email).toBe(`glass-${tag}@example.com`);
    expect((await getUser(other.body.id, true))?.email).toBe(`other-${tag}@example.com`);

    // Any other rename goes through, to and from addresses that merely contain the break-glass one.
    process.env.SSO_BREAK_GLASS_EMAIL = `glass-${tag}@example.com`;
    await patchUser(other.body.id, rename(`x-glass-${tag}@example.com`));
    expect((await getUser(other.body.id, true))?.email).toBe(`x-glass-${tag}@example.com`);
    await patchUser(other.body.id, rename(`other-renamed-${tag}@example.com`));
    expect((await getUser(other.body.id, true))?.email).toBe(`other-renamed-${tag}@example.com`);
    expect((await getUser(glass.body.id, true))?.email).toBe(`glass-${tag}@example.com`);
  });
});
