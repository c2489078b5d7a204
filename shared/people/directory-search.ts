import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { type Item, queryBudgeted } from '../db/table.ts';
import { exact, filterTerms, trigramTerm } from './directory-terms.ts';
import { DirectoryPerson, type DirectoryPersonItem, DirectoryTerm, Team, type UserItem } from './entities.ts';
import { isListed } from './listing.ts';
import { getUsers } from './users.ts';

export type DirectorySort = 'name' | 'recent' | 'posts';

export interface DirectoryQuery {
  q?: string;
  skill?: string;
  role?: string;
  location?: string;
  team?: string;
  status?: 'active' | 'pending';
  sort: DirectorySort;
  cursor?: string;
  limit: number;
}

export interface DirectoryPage {
  users: UserItem[];
  nextCursor: string | null;
}

/**
 * `GET /people` with a filter or `q`, once the directory rows are built (0013): every page reads a
 * bounded number of items, whatever the size of the company (docs/data-model.md, People).
 * - Sort `name` or `recent` with an exact filter, or with a `q` of 3 characters or more: the people of
 *   one term (the filter's value, or the rarest-looking trigram of `q`) in the sort's order, from the
 *   term's index (gsi4 by name, gsi7 by joining time), at most `TERM_BUDGET` a page in Queries of
 *   `TERM_BATCH`; their rows read in one batch each, every filter and the whole of `q` verified on them.
 * - Otherwise (sort `posts`, a `q` under 3 characters alone, `status=active` alone): the directory rows in
 *   the sort's order (gsi4, gsi7, gsi6 of `DirectoryPerson`), DynamoDB's filter testing the lower-cased
 *   fields, at most `ROW_BUDGET` rows evaluated a page.
 * Both start with a step about twice the page (a dense filter fills the page at once, reading about the
 * page), then take steps of `TERM_BATCH` up to their budget (a sparse one reads at most the budget).
 * Either way a page may hold fewer than `limit` entries and still a `nextCursor` (the walk reached its
 * bound before the page filled: the spec's page shape allows it); `nextCursor` is null only at the end.
 */
export const TERM_BATCH = 100;
export const TERM_BUDGET = 300;
export const ROW_BUDGET = 500;

/** The query's values as the rows hold them. */
interface Wanted {
  q: string;
  skill: string;
  role: string;
  location: string;
  team: string;
  status: string;
}

const wantedOf = (query: DirectoryQuery): Wanted => ({
  q: query.q?.trim().toLowerCase() ?? '',
  skill: exact(query.skill),
  role: exact(query.role),
  location: exact(query.location),
  team: query.team ?? '',
  status: query.status ?? '',
});

/** Whether a row is listed and meets every filter and `q` (AND). */
function matches(row: DirectoryPersonItem | undefined, w: Wanted): row is DirectoryPersonItem {
  if (!row || row.nameKey === undefined || !isListed(row)) return false;
  return (
    (!w.status || row.status === w.status) &&
    (!w.team || row.teamId === w.team) &&
    (!w.role || row.title === w.role) &&
    (!w.location || row.location === w.location) &&
    (!w.skill || row.skills.includes(w.skill)) &&
    (!w.q || row.text.includes(w.q))
  );
}

/** Letters from the most to the least frequent (English): a trigram of rare letters has few people. */
const FREQUENT = 'etaoinshrdlcumwfgypbvkjxqz';
const rarity = (c: string) => {
  const i = FREQUENT.indexOf(c);
  if (i >= 0) return i;
  return c === ' ' ? -5 : 20; // a space is in nearly everybody's text; digits and others are rare
};

/** The trigram of `q` to walk: the one of rarest letters (every trigram of `q` is in every match). */
export function rarestTrigram(q: string): string {
  const chars = [...q];
  let best = '';
  let score = Number.NEGATIVE_INFINITY;
  for (let i = 0; i + 3 <= chars.length; i++) {
    const t = chars.slice(i, i + 3);
    const s = t.reduce((n, c) => n + rarity(c), 0);
    if (s > score) {
      score = s;
      best = t.join('');
    }
  }
  return best;
}

/** The term whose people a page walks, or none (then the rows are walked). */
function termOf(w: Wanted, sort: DirectorySort): string | undefined {
  if (sort === 'posts') return undefined;
  const [first] = filterTerms({
    team: w.team || undefined,
    role: w.role,
    location: w.location,
    skill: w.skill,
    pending: w.status === 'pending',
  });
  if (first) return first;
  if ([...w.q].length >= 3) return trigramTerm(rarestTrigram(w.q));
  return undefined;
}

const rowIndexes = {
  name: { index: 'byName', forward: true },
  recent: { index: 'byJoined', forward: false },
  posts: { index: 'byPosts', forward: false },
} as const;

export async function searchRows(query: DirectoryQuery): Promise<DirectoryPage> {
  const w = wantedOf(query);
  const scope = `people-rows|${JSON.stringify([w.q, w.skill, w.role, w.location, w.team, w.status, query.sort])}`;
  const start = decodeCursor(scope, query.cursor);
  if (w.team) {
    // A deleted team has no people, even while rows still name it (team-deletion.ts clears them later).
    const team = await Team.get({ id: w.team });
    if (!team || team.deletingAt) return { users: [], nextCursor: null };
  }
  const term = termOf(w, query.sort);
  const found = term ? await walkTerm(term, w, query, start) : await walkRows(w, query, start);
  const people = await getUsers(found.ids);
  return {
    users: found.ids.map((id) => people.get(id)).filter((u): u is UserItem => !!u && isListed(u)),
    nextCursor: encodeCursor(scope, found.next),
  };
}

interface Walked {
  ids: string[];
  next: Record<string, unknown> | undefined;
}

/** The key to resume a query of `index` after this item. */
function resumeKey(item: Item, index: string | undefined): Record<string, unknown> {
  const k: Record<string, unknown> = { pk: item.pk, sk: item.sk };
  if (index) {
    k[`${index}pk`] = item[`${index}pk`];
    k[`${index}sk`] = item[`${index}sk`];
  }
  return k;
}

/** One term's people in the sort's order, verified on their rows: at most TERM_BUDGET candidates. */
async function walkTerm(
  term: string,
  w: Wanted,
  query: DirectoryQuery,
  start: Record<string, unknown> | undefined,
): Promise<Walked> {
  const options = DirectoryTerm.queryOptions({
    index: query.sort === 'recent' ? 'byJoined' : 'byName',
    key: { term },
    forward: query.sort !== 'recent',
  });
  const ids: string[] = [];
  let from = start;
  for (let read = 0; read < TERM_BUDGET; ) {
    // A first batch about the page's size (a dense term fills it at once), then larger ones.
    const batch = Math.min(read === 0 ? 2 * query.limit + 1 : TERM_BATCH, TERM_BUDGET - read);
    const out = await queryBudgeted<Item>({ ...options, want: batch, budget: batch, start: from });
    const candidates = out.items;
    read += batch;
    const rows = await DirectoryPerson.getMany(candidates.map((c) => ({ id: c.userId as string })));
    const fits = candidates.map((_, i) => matches(rows[i], w));
    for (let i = 0; i < candidates.length; i++) {
      if (!fits[i]) continue;
      if (ids.length === query.limit) {
        // A further match: the page ends at the last one taken.
        return { ids, next: resumeKey(candidates[lastTaken(fits, i)], options.index) };
      }
      ids.push(candidates[i].userId as string);
    }
    from = out.next;
    if (!from) return { ids, next: undefined };
    if (ids.length === query.limit) {
      // Full, and the rest of this batch holds no match: the next page starts after the batch.
      return { ids, next: from };
    }
  }
  return { ids, next: from };
}

/** The index of the match before `i` (the last one a full page took). */
function lastTaken(fits: boolean[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (fits[j]) return j;
  return i - 1;
}

/** The directory rows in the sort's order, DynamoDB's filter testing them: at most ROW_BUDGET evaluated. */
async function walkRows(w: Wanted, query: DirectoryQuery, start: Record<string, unknown> | undefined): Promise<Walked> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  const test = (field: string, value: string, how: 'eq' | 'contains') => {
    const n = `#f${conditions.length}`;
    const v = `:f${conditions.length}`;
    names[n] = field;
    values[v] = value;
    conditions.push(how === 'eq' ? `${n} = ${v}` : `contains(${n}, ${v})`);
  };
  if (w.status) test('status', w.status, 'eq');
  if (w.team) test('teamId', w.team, 'eq');
  if (w.role) test('title', w.role, 'eq');
  if (w.location) test('location', w.location, 'eq');
  if (w.skill) test('skills', w.skill, 'contains'); // a list: contains = one element equal
  if (w.q) test('text', w.q, 'contains'); // a string: contains = substring
  const { index, forward } = rowIndexes[query.sort];
  const options = DirectoryPerson.queryOptions({
    index,
    key: {},
    forward,
    ...(conditions.length
      ? {
          filter: {
            FilterExpression: conditions.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        }
      : {}),
  });
  const ids: string[] = [];
  let from = start;
  for (let evaluated = 0; evaluated < ROW_BUDGET && ids.length < query.limit; ) {
    // As for terms: a first step about the page's size, then larger ones, ROW_BUDGET in all.
    const step = Math.min(evaluated === 0 ? 2 * query.limit + 1 : TERM_BATCH, ROW_BUDGET - evaluated);
    const out = await queryBudgeted<DirectoryPersonItem>({
      ...options,
      want: query.limit - ids.length,
      budget: step,
      start: from,
    });
    evaluated += step;
    ids.push(...out.items.filter((r) => matches(r, w)).map((r) => r.id));
    from = out.next;
    if (!from) break;
  }
  return { ids, next: from };
}
