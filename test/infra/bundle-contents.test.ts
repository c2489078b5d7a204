import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledPackages, ensureBundled, ROOT } from '../../infra/build/bundle.ts';
import { handlerModuleUrl, stageBundles } from '../../infra/local/handler-module.ts';
import { handlerFile } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { route } from '../../shared/http/route.ts';
import { raise, world } from '../grievances/helpers.ts';
import { httpEvent, lambdaContext } from '../support/lambda-event.ts';

/** What each function bundle carries: heavy modules only where a route uses them (cold starts). */
describe('bundle contents', () => {
  beforeAll(async () => {
    await ensureBundled({ log: () => undefined });
  }, 300_000);

  const carrying = (pkg: string) => routes.filter((r) => bundledPackages(handlerFile(r)).includes(pkg));

  it('records the packages of every route bundle: the wrapper (middy) in each, none in the catch-all', () => {
    for (const r of routes) {
      if (r.path === '$default') expect(bundledPackages(handlerFile(r)), r.name).toEqual([]);
      else expect(bundledPackages(handlerFile(r)), r.name).toContain('@middy/core');
    }
  });

  it('carries no zod locale but English (zod imported as a namespace)', () => {
    expect(carrying('zod/locales').map((r) => r.name)).toEqual([]);
  });

  it('carries the multipart parser only in the upload routes', () => {
    const uploads = routes.filter((r) => r.multipart).map((r) => r.name);
    expect(uploads.length).toBeGreaterThan(0);
    expect(
      carrying('busboy')
        .map((r) => r.name)
        .sort(),
    ).toEqual(uploads.sort());
  });

  it('carries the media-type sniffer (file-type) only in the functions that verify uploads, under 1 MB', () => {
    expect(
      carrying('file-type')
        .map((r) => r.name)
        .sort(),
    ).toEqual(['create-post', 'update-post', 'upload-post-file']);
    for (const r of carrying('file-type')) {
      const size = statSync(join(ROOT, 'dist', handlerFile(r).replace(/\.ts$/, ''), 'index.mjs')).size;
      expect(size, r.name).toBeLessThan(1024 * 1024);
    }
  });

  it('carries the font engine (fontkit) only in the grievance export, with the font file beside it, under 1 MB', () => {
    expect(carrying('fontkit').map((r) => handlerFile(r))).toEqual(['functions/grievances/admin-export-grievance.ts']);
    const dir = join(ROOT, 'dist', 'functions/grievances/admin-export-grievance');
    expect(statSync(join(dir, 'index.mjs')).size).toBeLessThan(1024 * 1024);
    expect(statSync(join(dir, 'pdf-font', 'NotoSans-Regular.ttf')).size).toBeGreaterThan(100_000);
    expect(readFileSync(join(dir, 'pdf-font', 'OFL.txt'), 'utf8')).toContain('SIL Open Font License, Version 1.1');
  });

  it('carries the YAML library only in the YAML description routes', () => {
    expect(
      carrying('yaml')
        .map((r) => handlerFile(r))
        .sort(),
    ).toEqual(['functions/system/get-asyncapi-yaml.ts', 'functions/system/get-openapi-yaml.ts']);
  });
});

describe('the handler wrapper', () => {
  it("builds only the function's own route of its area's file: the other routes and their schemas are left out", () => {
    // The top-level declarations of the route table are pure (`declared`, shared/api/route-def.ts),
    // so a function's bundle holds no other route of its area: checked by the summaries, which survive minifying.
    for (const name of ['list-members', 'reply-birthday-wish', 'list-grievances']) {
      const own = routes.find((r) => r.name === name)!;
      const code = readFileSync(join(ROOT, 'dist', handlerFile(own).replace(/\.ts$/, ''), 'index.mjs'), 'utf8');
      expect(code).toContain(JSON.stringify(own.summary));
      const others = routes.filter((r) => r.area === own.area && r !== own);
      expect(others.length).toBeGreaterThan(0);
      expect(
        others.filter((r) => code.includes(JSON.stringify(r.summary))).map((r) => r.name),
        name,
      ).toEqual([]);
    }
  });

  it('writes every top-level declaration of the route table that calls anything as a pure `declared(() => ...)`', () => {
    const folders = ['shared/api/routes', 'shared/api/schemas'];
    const offending: string[] = [];
    for (const folder of folders) {
      for (const file of readdirSync(join(ROOT, folder)).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
        const source = readFileSync(join(ROOT, folder, file), 'utf8');
        for (const m of source.matchAll(/^(?:export )?const (\w+)(?:: [^=]+)? = (.*)$/gm)) {
          const value = m[2];
          if (value.startsWith('/* @__PURE__ */ declared(')) continue;
          // A call (`z.object(...)`, `defineRoute(...)`) or a chain starting on the next line (`z`).
          if (!/^[A-Za-z_$][\w$]*\s*(\.|\(|$)/.test(value)) continue;
          offending.push(`${folder}/${file}: ${m[1]}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  it('refuses a multipart route built without the upload wrapper (which brings the parser)', () => {
    const upload = routes.find((r) => r.multipart)!;
    expect(() => route(upload, async () => undefined)).toThrow(/uploadRoute/);
  });
});

/** The local runtime's bundled mode: the bundles run where only the Lambda environment's packages resolve. */
describe('bundled mode of the local runtime', () => {
  let unstage: () => void;
  beforeAll(async () => {
    unstage = await stageBundles(() => undefined);
  }, 300_000);
  afterAll(() => unstage?.());

  it('maps a handler to its staged bundle, outside the project', () => {
    const url = handlerModuleUrl('functions/system/get-health.ts');
    expect(url).toBe(pathToFileURL(join(process.env.LOCAL_BUNDLE_DIR!, 'functions/system/get-health/index.mjs')).href);
    expect(url.startsWith(pathToFileURL(ROOT).href)).toBe(false);
  });

  it('answers from a staged bundle', async () => {
    const { handler } = await import(handlerModuleUrl('functions/system/get-health.ts'));
    const res = await handler(
      {
        version: '2.0',
        routeKey: 'GET /api/v1/health',
        rawPath: '/api/v1/health',
        rawQueryString: '',
        headers: {},
        requestContext: { http: { method: 'GET', path: '/api/v1/health' }, requestId: 'r' },
        isBase64Encoded: false,
      },
      { awsRequestId: 'r', functionName: 'get-health', getRemainingTimeInMillis: () => 1000 },
    );
    expect(res.statusCode).toBe(200);
  });

  it('writes the grievance record as PDF from the staged bundle, its font read from the folder beside it', async () => {
    const { raiser, handler: admin } = await world();
    const g = await raise(raiser, { subject: 'Zażółć gęślą jaźń', description: 'Καλημέρα, Привет: “cytat”.' });
    expect(process.env.PDF_FONT_DIR).toBe(
      join(process.env.LOCAL_BUNDLE_DIR!, 'functions/grievances/admin-export-grievance/pdf-font'),
    );
    const { handler } = await import(handlerModuleUrl('functions/grievances/admin-export-grievance.ts'));
    const path = `/api/v1/admin/grievances/${g.id}/export`;
    const res = await handler(
      httpEvent({
        path,
        headers: { authorization: `Bearer ${admin.token}`, accept: 'application/pdf' },
        pathParameters: { grievanceId: g.id },
      }),
      lambdaContext('admin-export-grievance'),
    );
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'application/pdf']);
    const bytes = new Uint8Array(Buffer.from(res.body, res.isBase64Encoded ? 'base64' : 'utf8'));
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    for (const expected of ['Zażółć gęślą jaźń', 'Καλημέρα', 'Привет', '“cytat”']) expect(text).toContain(expected);
  });

  it('fails to load a package that is neither bundled nor provided, as Lambda would', () => {
    // In a plain Node process: vitest's own loader would resolve bare imports from the project.
    const dir = join(process.env.LOCAL_BUNDLE_DIR!, 'functions', 'probe');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'missing.mjs'), "export { z } from 'zod';\n");
    writeFileSync(join(dir, 'layer.mjs'), "export { default } from 'sharp';\n");
    const load = (file: string) =>
      spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)})`],
        {
          encoding: 'utf8',
        },
      );
    const missing = load(join(dir, 'missing.mjs'));
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/Cannot find package 'zod'/);
    expect(load(join(dir, 'layer.mjs')).status).toBe(0);
  });
});
