import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { avatarOwnerTag } from '../../shared/people/avatar-tag.ts';
import { bucketName, s3 } from '../../shared/storage/client.ts';
import { admin, api, PASSWORD, signIn, uniq } from '../support/api.ts';

/** Shared steps of the people tests (over HTTP, against the run's local runtime). */
export interface Person {
  id: string;
  email: string;
  name: string;
  token: string;
  profile: any;
}

export function expectStatus<T = any>(res: { status: number; text: string; body: T }, status: number, what = ''): T {
  if (res.status !== status)
    throw new Error(`${what} expected ${status}, got ${res.status}: ${res.text.slice(0, 300)}`);
  return res.body;
}

/** A member created by the admin (extra fields go to POST /admin/members), signed in unless `signIn: false`. */
export async function person(
  extra: Record<string, unknown> = {},
  opts: { signIn?: boolean; profile?: Record<string, unknown> } = {},
): Promise<Person> {
  const a = await admin();
  const tag = uniq();
  const email = `people-${tag}@example.com`;
  const name = (extra.name as string | undefined) ?? `Person ${tag}`;
  const profile = expectStatus(
    await api('POST', '/admin/members', { token: a.token, body: { name, email, password: PASSWORD, ...extra } }),
    201,
    'create member',
  );
  const token = opts.signIn === false ? '' : (await signIn(email, PASSWORD)).token;
  const p: Person = { id: profile.id, email, name, token, profile };
  if (opts.profile)
    p.profile = expectStatus(
      await api('PATCH', `/people/${p.id}/profile`, { token: a.token, body: opts.profile }),
      200,
      'set profile',
    );
  return p;
}

export async function newTeam(name = `Team ${uniq()}`, color?: string) {
  const a = await admin();
  return expectStatus(
    await api('POST', '/teams', { token: a.token, body: { name, ...(color ? { color } : {}) } }),
    201,
    'create team',
  );
}

export async function teamById(id: string) {
  const a = await admin();
  return (expectStatus(await api('GET', '/teams', { token: a.token }), 200, 'teams') as any[]).find((t) => t.id === id);
}

export const patchMe = (p: Person, body: unknown) => api('PATCH', '/users/me/profile', { token: p.token, body });

export async function setStatus(id: string, status: 'active' | 'deactivated') {
  const a = await admin();
  return expectStatus(
    await api('PATCH', `/admin/members/${id}/status`, { token: a.token, body: { status } }),
    200,
    `status ${status}`,
  );
}

/** Every directory entry for a query, following the cursors. */
export async function directory(token: string, query: Record<string, string | number> = {}): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 500; i++) {
    const qs = new URLSearchParams(
      Object.entries({ limit: 50, ...query, ...(cursor ? { cursor } : {}) }).map(([k, v]): [string, string] => [
        k,
        String(v),
      ]),
    );
    const page = expectStatus(await api('GET', `/people?${qs}`, { token }), 200, 'GET /people');
    items.push(...page.items);
    if (!page.nextCursor) return items;
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}

export const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

/** The avatar objects stored for a person (their keys start with `<userId>_`). */
export async function storedAvatars(userId: string): Promise<string[]> {
  const out = await s3().send(
    new ListObjectsV2Command({ Bucket: bucketName(), Prefix: `avatars/${avatarOwnerTag(userId)}_` }),
  );
  return (out.Contents ?? []).map((o) => o.Key!);
}

/** POST a multipart upload with one part (named `file` unless told). */
export function upload(
  path: string,
  token: string,
  bytes: Buffer,
  filename = 'avatar.png',
  type = 'image/png',
  field = 'file',
) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return api('POST', path, { token, raw: form });
}
