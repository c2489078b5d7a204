import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { FIRST_ADMIN } from './first-admin.ts';
import { ResponseValidator } from './response-validator.ts';

/** A small HTTP client for the project's own tests against the local runtime. */
let ownRuntime: string | undefined;
/** The file's runtime (set by setup-env.ts), or the one it chose with `useRuntime`. */
export const baseUrl = (): string => ownRuntime ?? process.env.TEST_BASE_URL!;

/**
 * Points this test file's calls at a runtime of its own (test/support/seeded-company.ts), or back at
 * the suite's with `undefined`; the first admin's session and the served document are fetched afresh.
 */
export function useRuntime(url: string | undefined): void {
  ownRuntime = url;
  adminSession = undefined;
  documentValidator = undefined;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function api<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string | Buffer | FormData; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: RequestInit['body'];
  if (opts.raw !== undefined) body = opts.raw as RequestInit['body'];
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = path.startsWith('http')
    ? path
    : `${baseUrl()}${path.startsWith('/_') || path.startsWith('/api/') ? '' : '/api/v1'}${path}`;
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const problems = (await validator()).check(
    method,
    url,
    { accept: headers.accept },
    res.status,
    res.headers.get('content-type'),
    parsed,
  );
  if (problems.length) {
    if (process.env.RESPONSE_VALIDATION_REPORT)
      appendFileSync(process.env.RESPONSE_VALIDATION_REPORT, `${problems.join('\n')}\n`);
    else throw new Error(`The answer does not match the OpenAPI document: ${problems.join('; ')}`);
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/**
 * Waits until the runtime's change feed has delivered everything written so far to its consumers, and
 * what they wrote in turn (`GET /_local/settled`, infra/local/stream-poller.ts): a test that asserts
 * what the background did, or that it did nothing, waits on this rather than on time.
 */
export async function settled(timeoutMs = 30_000): Promise<void> {
  const res = await fetch(`${baseUrl()}/_local/settled?timeoutMs=${timeoutMs}`);
  if (res.status !== 204) throw new Error(`the change feed did not settle within ${timeoutMs} ms (${res.status})`);
}

let documentValidator: Promise<ResponseValidator> | undefined;

/** The validator of the served document, fetched once per test file (with the first admin's session). */
function validator(): Promise<ResponseValidator> {
  documentValidator ??= (async () => {
    const signIn = await fetch(`${baseUrl()}/api/v1/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(FIRST_ADMIN),
    });
    const token = signIn.headers.get('set-auth-token');
    const doc = await fetch(`${baseUrl()}/api/v1/openapi.json`, { headers: { authorization: `Bearer ${token}` } });
    if (doc.status !== 200) throw new Error(`openapi.json: ${doc.status}`);
    return new ResponseValidator((await doc.json()) as ConstructorParameters<typeof ResponseValidator>[0]);
  })();
  return documentValidator;
}

export { FIRST_ADMIN } from './first-admin.ts';

export const uniq = () => randomUUID().slice(0, 8);
export const PASSWORD = 'test-password-1';

export async function signIn(email: string, password: string): Promise<{ token: string; user: any }> {
  const res = await api('POST', '/auth/sign-in/email', { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${res.text}`);
  return { token: res.headers.get('set-auth-token')!, user: res.body.user };
}

let adminSession: Promise<{ token: string; user: any }> | undefined;
export const admin = () => (adminSession ??= signIn(FIRST_ADMIN.email, FIRST_ADMIN.password));

/** Creates a member through the admin route and signs them in. */
export async function newMember(
  extra: Record<string, unknown> = {},
): Promise<{ id: string; email: string; name: string; token: string }> {
  const a = await admin();
  const tag = uniq();
  const email = `test-${tag}@example.com`;
  const name = `Test ${tag}`;
  const res = await api('POST', '/admin/members', {
    token: a.token,
    body: { name, email, password: PASSWORD, ...extra },
  });
  if (res.status !== 201) throw new Error(`create member: ${res.status} ${res.text}`);
  const { token } = await signIn(email, PASSWORD);
  return { id: res.body.id, email, name, token };
}
