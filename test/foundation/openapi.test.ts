import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { boolParam, limitParam } from '../../shared/api/query.ts';
import { routeMethods } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { openapiDocument } from '../../shared/registry/openapi.ts';
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

  it("describes people's data rights: the seven operations, and what export and erasure keep and cannot reach", () => {
    const doc = openapiDocument();
    const operations = [
      ['post', '/api/v1/admin/members/{userId}/data-export'],
      ['get', '/api/v1/admin/members/{userId}/data-export/{exportId}'],
      ['post', '/api/v1/users/me/data-export'],
      ['get', '/api/v1/users/me/data-export/{exportId}'],
      ['delete', '/api/v1/admin/members/{userId}'],
      ['get', '/api/v1/admin/erasures/{erasureId}'],
      ['put', '/api/v1/admin/members/{userId}/legal-hold'],
    ];
    for (const [method, path] of operations)
      expect(doc.paths[path]?.[method]?.summary, `${method} ${path}`).toBeTruthy();
    const { DataExport, Erasure } = doc.components.schemas;
    expect(DataExport.description).toMatch(/workplace-person-data\/1/);
    expect(DataExport.description).toMatch(/grievance channel is not included/);
    expect(Erasure.description).toMatch(/opaque id/);
    expect(Erasure.description).toMatch(/35 days.*24 hours/);
    const members = doc.tags.find((t: { name: string }) => t.name === 'members');
    expect(members.description).toMatch(/exports.*erasure/);
  });

  it('documents HEAD, without bodies, on exactly the routes that answer it (the cacheable public GETs)', () => {
    const doc = openapiDocument();
    const withHead = routes.filter((r) => routeMethods(r).includes('HEAD'));
    expect(withHead.length).toBeGreaterThan(0);
    for (const r of routes) {
      const head = doc.paths[r.path]?.head;
      if (!withHead.includes(r)) {
        if (r.method !== 'HEAD') expect(head, r.name).toBeUndefined();
        continue;
      }
      const get = doc.paths[r.path].get;
      expect(head.operationId).toBe(`${r.name}-head`);
      expect(Object.keys(head.responses).sort()).toEqual(Object.keys(get.responses).sort());
      for (const [status, response] of Object.entries(head.responses) as [string, any][]) {
        expect(response.content, `${r.name} ${status}`).toBeUndefined();
        expect(response.headers).toEqual(get.responses[status].headers);
      }
    }
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

  describe('the served document works with client generators and linters', () => {
    const served = async () => {
      const { token } = await admin();
      const res = await api('GET', '/openapi.json', { token });
      expect(res.status).toBe(200);
      return res.body as Record<string, any>;
    };

    it('passes `redocly lint` (recommended rules) without errors', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(await served()));
      // Offline: no telemetry, no update check. Exit code 1 = errors, which execFile reports by throwing.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--format=json', file],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      ).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
      // The warning it gave before (`/health` without a 4xx response) is gone too.
      expect(report.problems.map((p: { ruleId: string }) => p.ruleId)).not.toContain('operation-4xx-response');
    });

    it('has no component schema that only refers to itself, and ajv compiles every component schema', async () => {
      const doc = await served();
      const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
      expect(schemas.Error).toMatchObject({ type: 'object', required: ['statusCode', 'message', 'error'] });
      const refName = (s: Record<string, unknown>) =>
        Object.keys(s).length === 1 && typeof s.$ref === 'string' ? s.$ref.replace('#/components/schemas/', '') : null;
      for (const name of Object.keys(schemas)) {
        // Follow chains of schemas that are nothing but a reference: none may come back to where it began.
        const seen = new Set<string>();
        for (let at: string | null = name; at && schemas[at]; at = refName(schemas[at])) {
          expect(seen.has(at), `${name} is a reference cycle through ${[...seen].join(' → ')}`).toBe(false);
          seen.add(at);
        }
      }
      // JSON Schema 2020-12 (OpenAPI 3.1): every component compiles, references resolved among the components.
      const ajv = new Ajv2020.default({ strict: true, allErrors: true });
      addFormats.default(ajv);
      const defs = JSON.parse(JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"#/$defs/'));
      for (const name of Object.keys(schemas)) {
        expect(() => ajv.compile({ $defs: defs, $ref: `#/$defs/${name}` }), name).not.toThrow();
      }
      const validateError = ajv.compile({ $defs: defs, $ref: '#/$defs/Error' });
      expect(validateError({ statusCode: 401, message: 'no', error: 'Unauthorized', code: 'X' })).toBe(true);
      expect(validateError('string')).toBe(false);
    });

    it('describes every operation, declares every tag it uses, and names a contact', async () => {
      const doc = await served();
      expect(doc.info.contact?.name).toBeTruthy();
      const declared = new Map((doc.tags as { name: string; description: string }[]).map((t) => [t.name, t]));
      for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
        for (const [method, op] of Object.entries(ops)) {
          expect(op.description, `${method} ${path}`).toBeTruthy();
          expect(
            Object.keys(op.responses).some((s) => s.startsWith('4')),
            `${method} ${path} 4xx`,
          ).toBe(true);
          for (const tag of op.tags) expect(declared.get(tag)?.description, tag).toBeTruthy();
        }
      }
    });

    it('types numeric and boolean query parameters as integer and boolean', async () => {
      const doc = await served();
      const param = (path: string, name: string) =>
        doc.paths[`/api/v1${path}`].get.parameters.find((p: { name: string }) => p.name === name);
      expect(param('/posts', 'limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
      expect(param('/posts', 'following').schema).toEqual({ type: 'boolean' });
      expect(param('/auth/get-session', 'disableRefresh').schema).toMatchObject({ type: 'boolean' });
      for (const ops of Object.values(doc.paths as Record<string, Record<string, any>>))
        for (const op of Object.values(ops))
          for (const p of op.parameters ?? [])
            if (p.in === 'query' && ['limit', 'bookmarked', 'following'].includes(p.name))
              expect(p.schema.type, p.name).not.toBe('string');
    });
  });

  it('still parses the query strictly: a limit must be the text of a whole number of at least 1', () => {
    const limit = limitParam(50, 20);
    expect(limit.parse('5')).toBe(5);
    expect(limit.parse(undefined)).toBe(20);
    expect(limit.parse('900')).toBe(50);
    for (const bad of ['abc', '1.5', '', '0', '-1', '5 ']) expect(limit.safeParse(bad).success, bad).toBe(false);
    expect(boolParam().parse('true')).toBe(true);
    expect(boolParam().safeParse('1').success).toBe(false);
  });
});
