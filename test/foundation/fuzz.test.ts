import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { MAX_PATH_PARAMETER_BYTES } from '../../shared/http/middlewares/request-parser.ts';
import { SCIM_ERROR_SCHEMA } from '../../shared/scim/errors.ts';
import { admin, baseUrl, newMember, PASSWORD, signIn } from '../support/api.ts';

/**
 * Property-based fuzzing over the route table: for every route, hostile path parameters, query strings
 * and bodies (drawn from the route's own zod schemas and from lists of nasty strings, ids, numbers and
 * encodings) go to the local runtime, signed in as a member or as the super admin (or not at all).
 * Whatever comes in, the answer is never a 5xx, every error is in the common body, and input the
 * route's own schemas refuse never gets a 2xx.
 *
 * `npm test` runs FUZZ_RUNS cases per route (3) with a fixed seed (FUZZ_SEED), so a failure repeats;
 * `npm run fuzz` runs many more. The seed of a failing case is in the failure message.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

/**
 * Left out: the live-update stream answers a valid request with a stream that stays open (its
 * refusals — no session, query parameters — are tested in test/live/stream-session.test.ts).
 * The catch-all `$default` route is fuzzed below with random paths instead.
 */
const fuzzed = routes.filter((r) => !r.streaming && r.path !== '$default');
/** Routes that end the session they are called with: each case gets a session of its own. */
const ENDS_SESSION = new Set(['sign-out']);

// --- hostile values ---------------------------------------------------------------------------

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\t\r\n',
  '\u202e\u200b\ufeff',
  '😀',
  '\ud800',
  '\udfff',
  'é'.repeat(300),
  'x'.repeat(20_000),
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9007199254740993',
  '-1',
  '0',
  '2026-02-30',
  '0000-00-00T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '<script>alert(1)</script>',
  "'; DROP TABLE x; --",
  '../../etc/passwd',
  '%00',
  '%',
  'a#b',
  'POST#1',
  'USER#admin',
  '{"a":1}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, meant literally
  '${jndi:ldap://x}',
  'admin@example.com',
  'not-an-address@',
];
const NASTY_NUMBERS = [0, -0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 4_294_967_296];

/** Path segments as sent (already percent-encoded where they must be; some deliberately malformed). */
const rawSegment = fc.oneof(
  fc.constantFrom(
    '%',
    '%E0%A4%A',
    '%ED%A0%80',
    '%FF',
    '%00',
    '%2F',
    '..',
    '.',
    '__proto__',
    'constructor',
    'a'.repeat(2_100),
    'm'.repeat(2_041),
    'p'.repeat(MAX_PATH_PARAMETER_BYTES + 1),
    encodeURIComponent('é'.repeat(400)),
    '00000000-0000-0000-0000-000000000000',
    '01hzzzzzzzzzzzzzzzzzzzzz',
    'someone_abc.webp',
    'x.w400.webp',
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.uuid(),
);
/** A segment no item can be addressed by: undecodable, or longer than any key. */
function cannotExist(segment: string): boolean {
  try {
    return Buffer.byteLength(decodeURIComponent(segment)) > MAX_PATH_PARAMETER_BYTES;
  } catch {
    return true;
  }
}

const scalar = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.constantFrom(...NASTY_NUMBERS),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.uuid(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const jsonish = fc.oneof(
  { depthSize: 'small' },
  scalar,
  fc.array(scalar, { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', ''), scalar, { maxKeys: 2 }),
);

/** Field names of a (possibly refined or piped) zod object, for drawing bodies and queries. */
function fieldsOf(schema: unknown): string[] {
  const s = schema as { shape?: Record<string, unknown>; def?: { in?: unknown } } | undefined;
  if (s?.shape) return Object.keys(s.shape);
  if (s?.def?.in) return fieldsOf(s.def.in);
  return [];
}

/** Some of the route's own fields (any values), and now and then a field it does not know. */
const withSome = <T>(fields: string[], value: fc.Arbitrary<T>): fc.Arbitrary<[string, T][]> =>
  fc
    .tuple(
      fc
        .subarray(fields)
        .chain((keys) => fc.tuple(...keys.map(() => value)).map((vs) => keys.map((k, i) => [k, vs[i]] as [string, T]))),
      fc.array(fc.tuple(fc.constantFrom('unknownField', '__proto__', 'constructor'), value), { maxLength: 1 }),
    )
    .map(([known, extra]) => [...known, ...extra]);

// --- requests ---------------------------------------------------------------------------------

interface Case {
  segments: string[];
  query: [string, string][];
  body: { raw: string | Buffer | FormData; type: string; value?: unknown; parses: boolean } | undefined;
  as: 'member' | 'admin' | 'none';
}

function queryArb(def: AnyRoute): fc.Arbitrary<[string, string][]> {
  const fields = fieldsOf(def.query);
  const value = fc.oneof(scalar.map(String), fc.constantFrom('1', '20', '100', '101', 'abc', ''));
  return fc.oneof(
    fc.constant<[string, string][]>([]),
    withSome(fields.length ? fields : ['q'], value),
    fc.tuple(fc.constantFrom(...(fields.length ? fields : ['q'])), value).map((kv): [string, string][] => [kv, kv]), // a repeat
  );
}

const MULTIPART_BOUNDARY = 'XB';
function multipartArb(): fc.Arbitrary<NonNullable<Case['body']>> {
  const truncated = `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabcdef`;
  return fc.oneof(
    fc.constant({ raw: truncated, type: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, parses: false }),
    fc.uint8Array({ maxLength: 200 }).map((b) => ({
      raw: Buffer.from(b),
      type: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
      parses: false,
    })),
    fc
      .tuple(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'text/plain'),
        fc.constantFrom('file', 'other'),
      )
      .map(([bytes, type, field]) => {
        // Random bytes are no image or document of any kind the routes take.
        const form = new FormData();
        form.append(field, new Blob([bytes], { type }), 'x.png');
        return { raw: form, type: '', parses: false };
      }),
    fc.constant({ raw: '{}', type: 'application/json', parses: false }),
  );
}

function bodyArb(def: AnyRoute): fc.Arbitrary<Case['body']> {
  if (def.multipart) return multipartArb();
  const fields = fieldsOf(def.body);
  const json = (value: unknown) => ({ raw: JSON.stringify(value), type: 'application/json', value, parses: true });
  const object = withSome(fields.length ? fields : ['a'], jsonish).map((entries) => json(Object.fromEntries(entries)));
  const raw = fc.constantFrom(
    { raw: 'null', type: 'application/json', value: null, parses: true },
    { raw: '[]', type: 'application/json', value: [], parses: true },
    { raw: '"x"', type: 'application/json', value: 'x', parses: true },
    { raw: '{', type: 'application/json', parses: false },
    { raw: '{"a":', type: 'application/json', parses: false },
    { raw: `${'['.repeat(5_000)}${']'.repeat(5_000)}`, type: 'application/json', parses: false },
    {
      raw: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      type: 'application/json',
      parses: false,
    },
    { raw: '{"a":"\\ud800"}', type: 'application/json', parses: false },
    { raw: '{"__proto__":{"role":"super_admin"}}', type: 'application/json', parses: false },
    { raw: 'name=x', type: 'application/x-www-form-urlencoded', parses: false },
    { raw: '{}', type: 'text/plain', parses: false },
  );
  return def.body || def.bodyOptional
    ? fc.oneof(
        { weight: 3, arbitrary: object },
        { weight: 2, arbitrary: raw },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: object },
        { weight: 1, arbitrary: raw },
      );
}

function caseArb(def: AnyRoute): fc.Arbitrary<Case> {
  const params = (def.path.match(/\{\w+\}/g) ?? []).length;
  const as: fc.Arbitrary<Case['as']> =
    def.auth === 'super_admin'
      ? fc.constantFrom('admin', 'admin', 'member', 'none')
      : def.auth === 'session'
        ? fc.constantFrom('member', 'admin', 'member', 'none')
        : fc.constantFrom('none', 'member');
  return fc.record({
    segments: fc.array(rawSegment, { minLength: params, maxLength: params }),
    query: queryArb(def),
    // fetch sends no body with GET, so those cases carry none.
    body: def.method === 'GET' ? fc.constant(undefined) : bodyArb(def),
    as,
  });
}

/** Whether the route must refuse this case: by its auth, its own schemas, or ids that cannot exist. */
function inputIsInvalid(def: AnyRoute, c: Case): boolean {
  if (def.auth !== 'public' && c.as === 'none') return true;
  if (def.auth === 'super_admin' && c.as === 'member') return true;
  if (c.segments.some(cannotExist)) return true;
  if (c.query.length > 0) {
    if (!def.query) return true;
    if (c.query.some(([k, v]) => LONE_SURROGATE.test(k) || LONE_SURROGATE.test(v))) return true;
    if (new Set(c.query.map(([k]) => k)).size < c.query.length) return true;
    if (!def.query.safeParse(Object.fromEntries(c.query)).success) return true;
  }
  if (def.multipart) return true; // no generated upload carries a real image or document
  if (c.body === undefined) return false;
  if (!c.body.parses) return true;
  if (!def.body) {
    const v = c.body.value;
    return !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
  }
  return !def.body.safeParse(JSON.parse(c.body.raw as string)).success;
}

let tokens: { member: string; admin: string };
let memberEmail: string;

beforeAll(async () => {
  const m = await newMember();
  memberEmail = m.email;
  tokens = { member: m.token, admin: (await admin()).token };
});

const LONE_SURROGATE = /\p{Cs}/u;
/** Percent-encoding, where a lone surrogate (no UTF-8 exists for it) goes as its CESU-8 bytes. */
const encodeQueryPart = (s: string) =>
  [...s].map((ch) => (LONE_SURROGATE.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');

async function send(def: AnyRoute, c: Case) {
  let i = 0;
  const path = def.path.replace(/\{\w+\}/g, () => c.segments[i++]);
  const query = c.query.map(([k, v]) => `${encodeQueryPart(k)}=${encodeQueryPart(v)}`).join('&');
  const headers: Record<string, string> = {};
  if (c.as !== 'none') {
    headers.authorization = `Bearer ${ENDS_SESSION.has(def.name) ? (await signIn(memberEmail, PASSWORD)).token : tokens[c.as]}`;
  }
  if (c.body?.type) headers['content-type'] = c.body.type;
  const method = def.method === 'ANY' ? 'POST' : def.method;
  const res = await fetch(`${baseUrl()}${path}${query ? `?${query}` : ''}`, {
    method,
    headers,
    body: method === 'GET' ? undefined : (c.body?.raw as RequestInit['body']),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
}

function checkAnswer(def: AnyRoute, c: Case, res: Awaited<ReturnType<typeof send>>) {
  const where = `${def.method} ${def.path} as ${c.as}: ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  if (res.status >= 400 && def.scim && res.contentType.startsWith('application/scim+json')) {
    // A SCIM route refuses in SCIM's error body (RFC 7644 §3.12), its input checks included; what the
    // front door refuses before a route is chosen (a path that is not valid URL encoding, one that names
    // no route) answers in the common body (docs/scim.md), which the branch below checks.
    expect(JSON.parse(res.text), where).toMatchObject({ schemas: [SCIM_ERROR_SCHEMA], status: String(res.status) });
  } else if (res.status >= 400) {
    expect(res.contentType, where).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expect(body, where).toMatchObject({ statusCode: res.status, error: expect.any(String) });
    expect(typeof body.message === 'string' || Array.isArray(body.message), where).toBe(true);
  } else if (res.status < 300) {
    expect(inputIsInvalid(def, c), `${where}: a 2xx to input the route's schemas refuse`).toBe(false);
  }
}

/** A seed per route, so one route's failure can be replayed alone. */
const seedOf = (name: string) => [...name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, SEED);

describe('fuzzing the route table', () => {
  it.concurrent.each(fuzzed.map((def) => [`${def.method} ${def.path}`, def] as const))(
    '%s never answers 5xx, a non-common error or 2xx to invalid input',
    async (_name, def) => {
      await fc.assert(
        fc.asyncProperty(caseArb(def), async (c) => checkAnswer(def, c, await send(def, c))),
        { numRuns: RUNS, seed: seedOf(def.name), endOnFailure: true },
      );
    },
  );

  it('answers unknown paths and methods (the catch-all route) in the common body', async () => {
    const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
    await fc.assert(
      fc.asyncProperty(methods, fc.array(rawSegment, { minLength: 1, maxLength: 3 }), async (method, segments) => {
        const res = await fetch(`${baseUrl()}/api/v1/${segments.join('/')}`, { method, redirect: 'manual' });
        const text = await res.text();
        expect(res.status, `${method} ${segments.join('/')}: ${text}`).toBeLessThan(500);
        if (res.status >= 400 && method !== 'HEAD')
          expect(JSON.parse(text)).toMatchObject({ statusCode: res.status, error: expect.any(String) });
      }),
      { numRuns: RUNS * 10, seed: SEED, endOnFailure: true },
    );
  });
});
