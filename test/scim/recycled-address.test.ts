import { describe, expect, inject, it } from 'vitest';
import { getUser } from '../../shared/people/users.ts';
import { api, newMember, uniq } from '../support/api.ts';

/**
 * A recycled address is a new person (issue 46): after a SCIM DELETE, a POST /Users with the same
 * userName and another externalId (or none, where the former link had one) creates a new member; the
 * former holder keeps their account, deactivated, under a retired address. Through the local runtime.
 */

const scim = (method: string, path: string, body?: unknown) =>
  api(method, `/api/v1/scim/v2${path}`, { token: inject('localEnv').SCIM_TOKEN!, body });
const user = (userName: string, externalId?: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  displayName: `Person ${externalId ?? 'without id'}`,
  active: true,
  ...(externalId ? { externalId } : {}),
});

/** The former holder: created, then deleted by the provider. */
async function formerHolder(userName: string, externalId: string) {
  const created = await scim('POST', '/Users', user(userName, externalId));
  expect(created.status).toBe(201);
  expect((await scim('DELETE', `/Users/${created.body.id}`)).status).toBe(204);
  return created.body.id as string;
}

describe('SCIM and a recycled address', () => {
  for (const [what, next] of [
    ['another externalId', (tag: string) => `new-${tag}`],
    ['no externalId where the former link had one', () => undefined],
  ] as const)
    it(`makes a new member for ${what}, and keeps the former holder deactivated`, async () => {
      const tag = uniq();
      const userName = `recycled-${tag}@example.com`;
      const formerId = await formerHolder(userName, `old-${tag}`);

      const hired = await scim('POST', '/Users', user(userName, next(tag)));
      expect(hired.status).toBe(201);
      expect(hired.body.id).not.toBe(formerId);
      expect(hired.body.userName).toBe(userName);
      expect(hired.body.name.formatted).toBe(`Person ${next(tag) ?? 'without id'}`);

      const former = await getUser(formerId, true);
      expect(former).toMatchObject({ status: 'deactivated', name: `Person old-${tag}` });
      expect(former!.email).not.toBe(userName);
      expect(former!.email).toMatch(/@retired\.invalid$/);
      // The address finds the new person only.
      const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
      expect(found.body.Resources.map((r: { id: string }) => r.id)).toEqual([hired.body.id]);
    });

  it('links the same person again for the same externalId', async () => {
    const tag = uniq();
    const userName = `rehired-${tag}@example.com`;
    const formerId = await formerHolder(userName, `same-${tag}`);
    const back = await scim('POST', '/Users', user(userName, `same-${tag}`));
    expect(back.status).toBe(201);
    expect(back.body.id).toBe(formerId);
    expect((await getUser(formerId, true))?.status).toBe('active');
  });

  it('still adopts a member made by hand and never linked, whatever the externalId', async () => {
    const m = await newMember();
    const adopted = await scim('POST', '/Users', user(m.email, `ext-${uniq()}`));
    expect(adopted.status).toBe(201);
    expect(adopted.body.id).toBe(m.id);
  });
});
