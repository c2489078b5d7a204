import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { realtimeStreamRoute } from '../../shared/api/routes/realtime.ts';
import { type ChangeType, isChangeType } from '../../shared/live/change-events.ts';
import { asyncapiDocument } from '../../shared/registry/asyncapi.ts';
import { changeMappers } from '../../shared/registry/change-mappers.ts';
import { changeTypes } from '../../shared/registry/change-types.ts';
import * as z from '../../shared/util/zod.ts';
import { admin, api } from '../support/api.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const REGISTRY = join(ROOT, 'shared/registry/change-mappers.ts');
const CONTRACT = join(ROOT, 'shared/live/change-events.ts');

/** The relative imports of a module, as absolute paths. */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gm)].map((m) =>
    resolve(dirname(file), m[1]),
  );

/** Every module of shared/ the mappers' registry reaches through its imports. */
function reachableFromRegistry(): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file) || !file.startsWith(join(ROOT, 'shared/'))) return;
    seen.add(file);
    for (const next of importsOf(file)) walk(next);
  };
  walk(REGISTRY);
  return [...seen];
}

/** The modules that define the registered mappers (each registered mapper is exported by one of them). */
async function mapperModules(): Promise<string[]> {
  const registered = new Set<unknown>(Object.values(changeMappers));
  const modules: string[] = [];
  const defined = new Set<unknown>();
  for (const file of reachableFromRegistry()) {
    if (file === REGISTRY || file === CONTRACT) continue;
    const mappers = Object.values(await import(file)).filter((v) => registered.has(v));
    if (mappers.length === 0) continue;
    modules.push(file);
    for (const m of mappers) defined.add(m);
  }
  expect(defined.size, 'every registered mapper found in a module').toBe(registered.size);
  return modules;
}

/** Source without comments, so names in prose do not count as code. */
const code = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The text of every `changeType(...)` call of a source, and the source without them. */
function splitDeclarations(source: string): { declarations: string[]; rest: string } {
  const declarations: string[] = [];
  let rest = '';
  let at = 0;
  for (let i = source.indexOf('changeType(', at); i !== -1; i = source.indexOf('changeType(', at)) {
    let depth = 0;
    let end = i + 'changeType'.length;
    for (; end < source.length; end++) {
      if (source[end] === '(') depth++;
      else if (source[end] === ')' && --depth === 0) break;
    }
    rest += source.slice(at, i);
    declarations.push(source.slice(i, end + 1));
    at = end + 1;
  }
  return { declarations, rest: rest + source.slice(at) };
}

/**
 * The change types the code can emit, derived from the code: every change type declaration exported
 * by a module the mappers' registry reaches, kept when some mapper module builds events with it
 * (`<declaration>.event(`).
 */
async function emittableChangeTypes(): Promise<Map<string, ChangeType>> {
  const found = new Map<string, { type: ChangeType; exportName: string; file: string }>();
  for (const file of reachableFromRegistry()) {
    const module = (await import(file)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(module)) {
      if (!isChangeType(value)) continue;
      const before = found.get(value.name);
      expect(before?.type ?? value, `${value.name} declared twice`).toBe(value);
      found.set(value.name, { type: value, exportName, file });
    }
  }
  const builders = (await mapperModules()).map((f) => splitDeclarations(code(f)).rest).join('\n');
  return new Map(
    [...found.values()]
      .filter(({ exportName }) => new RegExp(`\\b${exportName}\\.event\\(`).test(builders))
      .map(({ type }) => [type.name, type]),
  );
}

const changeMessages = (doc: Record<string, any>) =>
  Object.values(doc.components.messages as Record<string, any>).filter(
    (m) => m.headers.properties.event.const === 'change',
  );

describe('the change types, declared once', () => {
  it('every mapper module builds its events only through declarations: no type name in code, no cast', async () => {
    const modules = await mapperModules();
    expect(modules.length).toBeGreaterThanOrEqual(5);
    for (const file of modules) {
      const { declarations, rest } = splitDeclarations(code(file));
      const name = relative(ROOT, file);
      // A declaration names its type with a literal; nothing else in a mapper module may.
      for (const d of declarations) expect(d, name).toMatch(/^changeType\(\s*'[a-z_]+(\.[a-z_]+)+'/);
      expect(rest.match(/['"`][a-z_]+(\.[a-z_]+)+['"`]/g) ?? [], name).toEqual([]);
      // Events are made by declarations only: no object literal with a type, nothing cast into an event.
      expect(rest, name).not.toMatch(/\btype\s*:/);
      expect(rest, name).not.toMatch(/\bas\s+(unknown|any|DeclaredChange|ChangeEventDraft)\b|\bsatisfies\b/);
      expect(rest, name).not.toMatch(/\bChangeEventDraft\b/);
    }
  });

  it('every declaration of a mapper module is exported (so the registry and this test can see it)', async () => {
    for (const file of await mapperModules()) {
      const module = (await import(file)) as Record<string, unknown>;
      const exported = Object.values(module).filter(isChangeType).length;
      expect(exported, relative(ROOT, file)).toBe(splitDeclarations(code(file)).declarations.length);
    }
  });

  it('the registry collects exactly the change types the mappers can emit, each once', async () => {
    const emittable = await emittableChangeTypes();
    expect(emittable.size).toBeGreaterThanOrEqual(20);
    expect(changeTypes.map((t) => t.name).sort()).toEqual([...emittable.keys()].sort());
    expect(new Set(changeTypes.map((t) => t.name)).size).toBe(changeTypes.length);
    for (const t of changeTypes) expect(t, t.name).toBe(emittable.get(t.name));
  });

  it("a declaration's events carry its name, its payload and its audience", async () => {
    const { bookmarkUpdated, postDeleted } = await import('../../shared/feed/change-events.ts');
    expect(postDeleted.event('u1', { postId: 'p1', authorId: 'u1' })).toEqual({
      type: 'post.deleted',
      actorId: 'u1',
      payload: { postId: 'p1', authorId: 'u1' },
      audience: { kind: 'all' },
    });
    expect(bookmarkUpdated.event('u2', { postId: 'p1', bookmarked: true }, 'u2').audience).toEqual({
      kind: 'user',
      userId: 'u2',
    });
  });
});

describe('the AsyncAPI document of the live stream', () => {
  const parser = new Parser();
  const problems = async (doc: unknown) => {
    const { diagnostics } = await parser.parse(JSON.stringify(doc));
    // Severity 0 is an error, 1 a warning; 2 (information) is the note that AsyncAPI 3.1 exists.
    return diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code} ${d.path.join('.')}: ${d.message}`);
  };

  it('is a valid AsyncAPI 3.0 document (and the parser does reject a broken one)', async () => {
    const doc = asyncapiDocument();
    expect(doc.asyncapi).toBe('3.0.0');
    expect(await problems(doc)).toEqual([]);
    const broken = structuredClone(doc);
    broken.operations.stream.action = 'listen';
    expect((await problems(broken)).length).toBeGreaterThan(0);
  });

  it('lists exactly the change types the code can emit, with their payload schema and audience', async () => {
    const emittable = await emittableChangeTypes();
    const messages = changeMessages(asyncapiDocument());
    expect(messages.map((m) => m.name).sort()).toEqual([...emittable.keys()].sort());
    for (const m of messages) {
      const t = emittable.get(m.name)!;
      expect(m['x-audience'], m.name).toBe(t.audience);
      expect(m.description, m.name).toContain(t.audience === 'user' ? 'only the person' : 'everyone');
      expect(m.summary, m.name).toBe(t.description);
      expect(m.payload.properties.type.const).toBe(t.name);
      const declared = z.toJSONSchema(t.payload, { target: 'draft-07', io: 'output' }) as Record<string, any>;
      expect(Object.keys(m.payload.properties.payload.properties).sort(), m.name).toEqual(
        Object.keys(declared.properties).sort(),
      );
      expect(m.payload.properties.payload.required.sort(), m.name).toEqual([...declared.required].sort());
    }
  });

  it('describes the stream: server, channel, security, and the ready, resync and ping frames with the id rules', () => {
    const doc = asyncapiDocument();
    expect(doc.servers.service).toMatchObject({ protocol: 'https', pathname: '/' });
    expect(doc.channels.stream.address).toBe(realtimeStreamRoute.path);
    expect(doc.channels.stream.address).toBe('/api/v1/realtime/stream');
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      cookie: expect.objectContaining({ type: 'httpApiKey', in: 'cookie', name: 'wcs_session' }),
    });
    expect(doc.operations.stream).toMatchObject({ action: 'send', bindings: { http: { method: 'GET' } } });
    expect(Object.keys(doc.operations.stream.bindings.http.query.properties)).toEqual(['clientId']);
    const { ready, resync, ping } = doc.components.messages;
    for (const frame of [ready, resync, ping]) expect(frame.description).toContain('Last-Event-ID');
    expect(ready.payload.required).toEqual(['epoch']);
    expect(ready.headers.required).toEqual(['event', 'id']);
    expect(ping.headers.required).toEqual(['event', 'id']);
    expect(resync.headers.required).toEqual(['event']);
    expect(ready.description).toMatch(/<epoch>:<seq>/);
    // Every message of the components is on the channel and sent by the operation.
    const keys = Object.keys(doc.components.messages);
    expect(Object.keys(doc.channels.stream.messages)).toEqual(keys);
    expect(doc.operations.stream.messages).toHaveLength(keys.length);
  });
});

describe('the AsyncAPI routes', () => {
  it('serve the document as JSON and YAML with a session, and valid', async () => {
    expect((await api('GET', '/asyncapi.json')).status).toBe(401);
    expect((await api('GET', '/asyncapi.yaml')).status).toBe(401);
    const { token } = await admin();
    const json = await api('GET', '/asyncapi.json', { token });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body).toEqual(JSON.parse(JSON.stringify(asyncapiDocument())));
    const yaml = await api('GET', '/asyncapi.yaml', { token });
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(yaml.text).toMatch(/^asyncapi: 3\.0\.0/m);
    expect(parse(yaml.text)).toEqual(json.body);
    const { diagnostics } = await new Parser().parse(yaml.text);
    expect(diagnostics.filter((d) => d.severity <= 1)).toEqual([]);
  });

  it('are linked from the reference page', async () => {
    const { token } = await admin();
    const page = await api('GET', '/docs', { token });
    expect(page.text).toContain('href="/api/v1/asyncapi.json"');
    expect(page.text).toContain('href="/api/v1/asyncapi.yaml"');
  });
});
