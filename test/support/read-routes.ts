import { routes } from '../../shared/api/routes/index.ts';
import type { Item } from '../../shared/db/table.ts';
import { baseUrl } from './api.ts';
import { scanTable, storedObjects } from './stored-data.ts';

/**
 * Every read route of the route table called with ids taken from the stored items and object keys,
 * none answering 5xx (the data-rights tests after an erasure, the upgrade test on an earlier release's
 * data).
 */

/** Candidate values of each path parameter, by its name (`{key}` by the collection it follows). */
export function idsByParameter(items: Item[], objectKeys: string[]): Map<string, string[]> {
  const of = (entity: string, field = 'id') =>
    [...new Set(items.filter((i) => i.entity === entity).map((i) => String(i[field])))].slice(0, 2);
  const keysUnder = (prefix: string) =>
    objectKeys
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length))
      .slice(0, 2);
  return new Map<string, string[]>([
    ['postId', of('Post')],
    ['commentId', of('Comment')],
    ['grievanceId', of('Grievance')],
    ['replyId', of('GrievanceReply')],
    ['eventId', of('CompanyEvent')],
    ['meetingId', of('Meeting')],
    ['teamId', of('Team')],
    // A SCIM Group is a team (docs/scim.md).
    ['groupId', of('Team')],
    // The one identity provider of single sign-on (docs/sso.md).
    ['providerId', ['oidc']],
    ['userId', of('User')],
    ['requestId', of('LeaveRequest')],
    ['wishId', of('BirthdayWish')],
    ['exportId', of('DataExport')],
    ['erasureId', of('PersonErasure')],
    ['audienceId', of('Audience')],
    ['surveyId', of('Survey')],
    ['avatars/key', keysUnder('avatars/')],
    ['posts/key', keysUnder('posts/')],
  ]);
}

/** The route's path with each parameter filled, or null when a parameter has no known values. */
export function fill(path: string, ids: Map<string, string[]>): string[] | null {
  const parts = path.split('/');
  let paths = [''];
  for (let i = 1; i < parts.length; i++) {
    const m = /^\{(\w+)\+?\}$/.exec(parts[i]);
    if (!m) {
      paths = paths.map((p) => `${p}/${parts[i]}`);
      continue;
    }
    const values = ids.get(m[1]) ?? ids.get(`${parts[i - 1]}/${m[1]}`);
    if (!values?.length) return null;
    paths = paths.flatMap((p) => values.map((v) => `${p}/${encodeURIComponent(v)}`));
  }
  return paths;
}

/**
 * Calls every GET route of the route table (streams aside) with each session, its path parameters
 * filled from the stored items and object keys; answers the calls made, those that answered 5xx, and
 * the routes left out because a parameter had no stored value.
 * `skip` leaves out routes by their filled path (a read with effects on other tests' people).
 */
export async function readRoutesWithout5xx(
  tokens: Record<string, string>,
  opts: { baseUrl?: string; items?: Item[]; objectKeys?: string[]; skip?: (path: string) => boolean } = {},
): Promise<{ called: number; failures: string[]; unfilled: string[] }> {
  const base = opts.baseUrl ?? baseUrl();
  const items = opts.items ?? (await scanTable());
  const objectKeys = opts.objectKeys ?? (await storedObjects()).objects.map((o) => o.key);
  const ids = idsByParameter(items, objectKeys);
  const reads = routes.filter((r) => r.method === 'GET' && !r.streaming);
  const unfilled = reads.filter((r) => fill(r.path, ids) === null).map((r) => r.path);
  const calls = reads
    .flatMap((route) => fill(route.path, ids) ?? [])
    .filter((path) => !opts.skip?.(path))
    .flatMap((path) => Object.entries(tokens).map(([who, token]) => ({ who, token, path })));
  const failures: string[] = [];
  // A few at a time: each function's first call is a cold start.
  const queue = [...calls];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const { status, text } = await readAsAClientWould(`${base}${c.path}`, c.token);
        if (status >= 500) failures.push(`${c.who} GET ${c.path}: ${status} ${text.slice(0, 200)}`);
      }
    }),
  );
  return { called: calls.length, failures, unfilled };
}

/** Tries of a read answered 503 with `Retry-After` (the emulator busy with the rest of the suite). */
const TRIES = 3;

/**
 * A GET as a client makes it: a 503 with `Retry-After` (a dependency too slow for a moment, what the
 * service answers under load) is asked again after the wait it names; a 500, or a 503 on every try, stays.
 */
async function readAsAClientWould(url: string, token: string): Promise<{ status: number; text: string }> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const retryAfter = Number(res.headers.get('retry-after'));
    if (res.status !== 503 || !(retryAfter > 0) || attempt === TRIES) return { status: res.status, text };
    await new Promise((r) => setTimeout(r, Math.min(retryAfter, 10) * 1000));
  }
}
