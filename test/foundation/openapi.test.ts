import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../shared/api/openapi.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { admin, api } from '../support/api.ts';

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(openapiDocument() as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every declared route but the stream and the catch-all, with request and success schemas', () => {
    const doc = openapiDocument();
    for (const r of routes) {
      if (r.streaming || r.path === '$default') continue;
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op.responses[String(r.status)]).toBeDefined();
      if (r.response) expect(op.responses[String(r.status)].content['application/json'].schema).toBeDefined();
      if (r.body) expect(op.requestBody.content['application/json'].schema).toBeDefined();
    }
    expect(Object.keys(doc.paths).some((p) => p.includes('realtime'))).toBe(false);
  });

  it('documents the Idempotency-Key header with its 409 and 422 on exactly the routes that honour it', () => {
    const doc = openapiDocument();
    const creating = routes.filter((r) => r.idempotent).map((r) => r.name);
    expect(creating).toEqual(
      expect.arrayContaining(['create-post', 'raise-grievance', 'create-meeting', 'create-member', 'upload-post-file']),
    );
    for (const r of routes) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      if (!op) continue;
      const header = (op.parameters ?? []).find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (!r.idempotent) {
        expect(header, r.name).toBeUndefined();
        continue;
      }
      expect(header, r.name).toMatchObject({ required: false, schema: { type: 'string', maxLength: 255 } });
      expect(header.description).toContain('422');
      for (const status of ['400', '409', '422']) expect(op.responses[status], `${r.name} ${status}`).toBeDefined();
      // The function writes its idempotency records: deployed, it needs the table write grant.
      expect(r.access?.table, r.name).toBe('write');
    }
  });

  it('is served as JSON and YAML with a session, and the docs page loads its own assets', async () => {
    const { token } = await admin();
    const json = await api('GET', '/openapi.json', { token });
    expect(json.status).toBe(200);
    expect(json.body.openapi).toBe('3.1.0');
    const yaml = await api('GET', '/openapi.yaml', { token });
    expect(yaml.text).toMatch(/^openapi: 3\.1\.0/m);
    const page = await api('GET', '/docs', { token });
    expect(page.headers.get('content-type')).toContain('text/html');
    for (const asset of page.text.match(/\/api\/v1\/docs\/[\w.-]+/g) ?? []) {
      expect((await api('GET', asset, { token })).status, asset).toBe(200);
    }
    expect((await api('GET', '/docs/nope.js', { token })).status).toBe(404);
  });
});
