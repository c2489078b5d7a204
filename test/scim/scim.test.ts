import { describe, expect, inject, it } from 'vitest';
import { admin, api } from '../support/api.ts';

const scimToken = () => inject('localEnv').SCIM_TOKEN!;
/** A SCIM request, with the SCIM token unless `token` says otherwise (`null`: no Authorization header). */
const scim = (method: string, path: string, token?: string | null, body?: unknown) =>
  api(method, `/api/v1/scim/v2${path}`, { token: token === undefined ? scimToken() : (token ?? undefined), body });

describe('SCIM discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas as application/scim+json with the SCIM token', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(config.body.patch).toEqual({ supported: true });
    expect(config.body.filter.supported).toBe(true);
    expect(config.body.authenticationSchemes[0].type).toBe('oauthbearertoken');

    const types = await scim('GET', '/ResourceTypes');
    expect(types.status).toBe(200);
    expect(types.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    expect(types.body.Resources.map((r: any) => r.id)).toEqual(['User', 'Group']);

    const schemas = await scim('GET', '/Schemas');
    expect(schemas.status).toBe(200);
    expect(schemas.body.totalResults).toBe(3);
    const user = schemas.body.Resources.find((s: any) => s.id === 'urn:ietf:params:scim:schemas:core:2.0:User');
    expect(user.attributes.find((a: any) => a.name === 'userName').uniqueness).toBe('server');
  });

  it('answers 401 in SCIM error body to a missing or wrong token, and to a member session', async () => {
    const { token: session } = await admin();
    for (const token of [null, 'wrong-token', session]) {
      const res = await scim('GET', '/ServiceProviderConfig', token);
      expect(res.status, String(token)).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '401',
      });
    }
  });

  it('the SCIM token grants nothing outside SCIM', async () => {
    const res = await api('GET', '/admin/members', { token: scimToken() });
    expect(res.status).toBe(401);
    const profile = await api('GET', '/users/me/profile', { token: scimToken() });
    expect(profile.status).toBe(401);
  });
});
