import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_PATH_PARAMETER_BYTES } from '../../shared/http/middlewares/request-parser.ts';
import { parseMultipart } from '../../shared/http/multipart.ts';
import { type ApiResponse, api, baseUrl, newMember } from '../support/api.ts';

/** A non-2xx answer in the common error body. */
const expectError = (res: ApiResponse, status: number) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String) });
  expect(typeof res.body.message === 'string' || Array.isArray(res.body.message)).toBe(true);
};

/** A multipart body cut short: a part header, six bytes, and no closing boundary. */
const TRUNCATED_MULTIPART = Buffer.from(
  '--XB\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabcdef',
);

const expectAlive = async () => expect((await api('GET', '/health')).status).toBe(200);

describe('hostile input', () => {
  it('rejects a truncated multipart body as malformed (the part stream error is handled)', async () => {
    await expect(parseMultipart(TRUNCATED_MULTIPART, 'multipart/form-data; boundary=XB', 1024)).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('answers a truncated upload with 400 on both upload routes, stores nothing and stays up', async () => {
    const m = await newMember();
    const headers = { 'content-type': 'multipart/form-data; boundary=XB' };
    for (const path of ['/files/posts', '/users/me/avatar']) {
      expectError(await api('POST', path, { token: m.token, raw: TRUNCATED_MULTIPART, headers }), 400);
      await expectAlive();
    }
    const profile = await api('GET', '/users/me/profile', { token: m.token });
    expect(profile.status).toBe(200);
    expect(profile.body.image).toBeNull();
  });

  it('answers malformed percent-encoding in the path with 400 before authentication', async () => {
    for (const path of ['/api/v1/posts/%E0%A4%A', '/api/v1/grievances/%/status-changes', '/api/v1/people/%ED%A0%80']) {
      expectError(await api('GET', path), 400);
    }
    await expectAlive();
  });

  it('answers ids no item can have (longer than any key) with 404, on public and session routes', async () => {
    const m = await newMember();
    const long = 'a'.repeat(2100);
    expectError(await api('GET', `/public/office-updates/${long}`), 404);
    expectError(await api('DELETE', `/leave/requests/${long}`, { token: m.token }), 404);
    expectError(await api('GET', `/meetings/${'m'.repeat(2041)}`, { token: m.token }), 404);
    expectError(await api('GET', `/people/${'é'.repeat(MAX_PATH_PARAMETER_BYTES / 2 + 1)}`, { token: m.token }), 404);
    // The bound is no stricter than it must be: an id at the bound is looked up (and not found).
    expectError(await api('GET', `/people/${'p'.repeat(MAX_PATH_PARAMETER_BYTES)}`, { token: m.token }), 404);
    // Without a session the answer is still 401 first.
    expectError(await api('DELETE', `/leave/requests/${long}`), 401);
  });

  it('treats names of Object.prototype as unknown docs assets and query parameters', async () => {
    const m = await newMember();
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString']) {
      expectError(await api('GET', `/docs/${name}`, { token: m.token }), 404);
    }
    expect((await api('GET', '/docs/swagger-ui.css', { token: m.token })).status).toBe(200);
    const res = await api('GET', '/notifications?__proto__=x', { token: m.token });
    expectError(res, 400);
    expect(res.body.message).toEqual([expect.stringContaining('__proto__')]);
  });

  it('refuses JSON bodies that are not well-formed UTF-8 or carry unpaired surrogates', async () => {
    const m = await newMember();
    const json = { 'content-type': 'application/json' };
    const badBytes = Buffer.concat([Buffer.from('{"content":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expectError(await api('POST', '/posts', { token: m.token, raw: badBytes, headers: json }), 400);
    for (const escaped of ['\\ud800', '\\udfff', 'a\\ud83d', '\\ude00b']) {
      const raw = `{"content":"${escaped}"}`;
      expectError(await api('POST', '/posts', { token: m.token, raw, headers: json }), 400);
    }
    expectError(await api('POST', '/posts', { token: m.token, raw: '{"\\ud800":"x"}', headers: json }), 400);
    // A proper pair (an emoji, escaped or not) is text like any other.
    const ok = await api('POST', '/posts', { token: m.token, raw: '{"content":"\\ud83d\\ude00 😀"}', headers: json });
    expect(ok.status).toBe(201);
    expect(ok.body.content).toBe('😀 😀');
  });

  it('answers null as a required JSON body with 400, not as {}', async () => {
    const m = await newMember();
    const json = { 'content-type': 'application/json' };
    expectError(await api('POST', '/auth/update-user', { token: m.token, raw: 'null', headers: json }), 400);
    expectError(await api('PATCH', '/users/me/profile', { token: m.token, raw: 'null', headers: json }), 400);
    expect((await api('POST', '/auth/update-user', { token: m.token, body: {} })).status).toBe(200);
  });

  it('answers oversized request headers with 431 in the common body', async () => {
    const url = new URL(`${baseUrl()}/api/v1/health`);
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { headers: { 'x-filler': 'a'.repeat(100 * 1024) } }, (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toMatchObject({ statusCode: 431, error: 'Request Header Fields Too Large' });
    await expectAlive();
  });
});
