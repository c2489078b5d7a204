import { describe, expect, it } from 'vitest';
import { admin, api, newMember } from '../support/api.ts';

const expectError = (res: { status: number; body: any }, status: number) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String) });
  expect(typeof res.body.message === 'string' || Array.isArray(res.body.message)).toBe(true);
};

describe('handler wrapper', () => {
  it('answers malformed JSON with 400, not 500', async () => {
    const m = await newMember();
    const res = await api('POST', '/auth/change-password', {
      token: m.token,
      raw: '{"currentPassword": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400);
  });

  it('refuses a body that is not JSON with a 4xx', async () => {
    const m = await newMember();
    const res = await api('POST', '/auth/update-user', {
      token: m.token,
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });

  it('answers unknown body fields with field errors', async () => {
    const a = await admin();
    const res = await api('POST', '/admin/members', {
      token: a.token,
      body: { name: 'X', email: 'x@example.com', password: 'long-enough-1', shoeSize: 42 },
    });
    expectError(res, 400);
    expect(res.body.message).toEqual(expect.arrayContaining([expect.stringContaining('shoeSize')]));
  });

  it('answers validation failures with message as an array of field errors', async () => {
    const a = await admin();
    const res = await api('POST', '/admin/members', {
      token: a.token,
      body: { name: 'X', email: 'not-an-address', password: 'short' },
    });
    expectError(res, 400);
    expect(Array.isArray(res.body.message)).toBe(true);
    expect(res.body.message.length).toBeGreaterThanOrEqual(2);
  });

  it('answers unknown and repeated query parameters with 400', async () => {
    const m = await newMember();
    expectError(await api('GET', '/notifications?bogus=1', { token: m.token }), 400);
    expectError(await api('GET', '/notifications?limit=5&limit=6', { token: m.token }), 400);
    expectError(await api('GET', '/notifications?limit=0', { token: m.token }), 400);
    expectError(await api('GET', '/users/me/profile?x=1', { token: m.token }), 400);
    expect((await api('GET', '/notifications?limit=500', { token: m.token })).status).toBe(200);
  });

  it('answers a missing or unknown session with 401 before validating anything', async () => {
    expectError(await api('GET', '/users/me/profile'), 401);
    expectError(await api('GET', '/users/me/profile', { headers: { authorization: 'Bearer nope' } }), 401);
    expectError(await api('POST', '/admin/members', { body: { bogus: true } }), 401);
  });

  it('answers the wrong role with 403, read fresh on every request', async () => {
    const m = await newMember();
    expectError(await api('GET', '/admin/members', { token: m.token }), 403);
    const a = await admin();
    expect(
      (await api('PATCH', `/admin/members/${m.id}/role`, { token: a.token, body: { role: 'super_admin' } })).status,
    ).toBe(200);
    expect((await api('GET', '/admin/members', { token: m.token })).status).toBe(200);
    expect(
      (await api('PATCH', `/admin/members/${m.id}/role`, { token: a.token, body: { role: 'member' } })).status,
    ).toBe(200);
    expectError(await api('GET', '/admin/members', { token: m.token }), 403);
  });

  it('answers unknown paths, sign-up and the removed submitter route with 404 in the common body', async () => {
    const m = await newMember();
    expectError(await api('GET', '/no-such-route', { token: m.token }), 404);
    expectError(
      await api('POST', '/auth/sign-up/email', { raw: 'not json', headers: { 'content-type': 'text/plain' } }),
      404,
    );
    expectError(await api('GET', '/admin/grievances/abc/submitter', { token: m.token }), 404);
    expect((await api('GET', '/api/v2/health')).status).toBe(404);
  });

  it('adds CORS headers for allowed origins and answers preflights', async () => {
    const res = await api('GET', '/health', { headers: { origin: 'https://app.example.com' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const pre = await api('OPTIONS', '/users/me/profile', {
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('requires an allowed Origin on cookie-authenticated writes, not on bearer ones', async () => {
    const m = await newMember();
    const signIn = await api('POST', '/auth/sign-in/email', { body: { email: m.email, password: 'test-password-1' } });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await api('GET', '/users/me/profile', { headers: { cookie } })).status).toBe(200);
    expectError(await api('POST', '/auth/update-user', { headers: { cookie }, body: { name: 'Cookie Person' } }), 403);
    expect(
      (
        await api('POST', '/auth/update-user', {
          headers: { cookie, origin: 'https://app.example.com' },
          body: { name: 'Cookie Person' },
        })
      ).status,
    ).toBe(200);
    expect((await api('POST', '/auth/update-user', { token: m.token, body: { name: 'Bearer Person' } })).status).toBe(
      200,
    );
  });
});
