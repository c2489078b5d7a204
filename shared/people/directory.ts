import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { page } from '../db/paging.ts';
import { getMany, keyString } from '../db/table.ts';
import { type DirectoryRow, rowsOf } from './derived-from-person.ts';
import { directoryShardsLive } from './directory-migration-state.ts';
import { type DirectoryPage, type DirectoryQuery, type DirectorySort, searchRows } from './directory-search.ts';
import {
  DirectoryFacet,
  DirectoryShard,
  DirectoryShardPosts,
  type FacetKind,
  Team,
  type TeamItem,
  User,
  type UserItem,
} from './entities.ts';
import { DIRECTORY_SHARDS, nameKey, shardOf, shardPostCount } from './listing.ts';
import { listedByName, roster } from './roster.ts';
import { getUsers } from './users.ts';

/**
 * `GET /people` and the lists next to it. Access paths, none with Scan, each reading a bounded number
 * of items whatever the size of the company (costs in docs/data-model.md, People):
 * - no filter and no `q`: one Query of the sort's index on the profile items (gsi4 name, gsi7 joining
 *   time, gsi6 posts) — O(page);
 * - a filter or `q` (directory-search.ts): a bounded walk of one term's people (an exact filter's
 *   value, or one trigram of `q`) or of the directory rows in the sort's order, verified on the rows;
 * - until migration 0013 has built the rows (directory-migration-state.ts): the older projection, one
 *   batch read of the fixed set of directory shards, matched and ordered in memory.
 */
export type { DirectoryPage, DirectoryQuery } from './directory-search.ts';

const sortIndexes = {
  name: { index: 'byName', forward: true },
  recent: { index: 'byJoined', forward: false },
  posts: { index: 'byPosts', forward: false },
} as const;

const hasFilter = (q: DirectoryQuery) => Boolean(q.q?.trim() || q.skill || q.role || q.location || q.team || q.status);

export async function listDirectory(query: DirectoryQuery): Promise<DirectoryPage> {
  if (hasFilter(query)) return (await directoryShardsLive()) ? searchProjection(query) : searchRows(query);
  const { index, forward } = sortIndexes[query.sort];
  // The directory's partition (a listed person's), the whole index in its order.
  const found = await User.query({ index, key: {}, forward }, page({ limit: query.limit, cursor: query.cursor }));
  return { users: found.items, nextCursor: found.nextCursor };
}

/** A row with what its sort needs; the cursor carries the last one of a page. */
interface Ranked {
  id: string;
  n: string;
  j: string;
  p: number;
}

const byName = (a: Ranked, b: Ranked) => (a.n < b.n ? -1 : a.n > b.n ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const comparators: Record<DirectorySort, (a: Ranked, b: Ranked) => number> = {
  name: byName,
  recent: (a, b) => (a.j > b.j ? -1 : a.j < b.j ? 1 : a.id > b.id ? -1 : a.id < b.id ? 1 : 0),
  posts: (a, b) => b.p - a.p || byName(a, b),
};

/** Case-insensitive matching of one row against every filter given (AND). */
function matcher(query: DirectoryQuery): (row: DirectoryRow) => boolean {
  const q = query.q?.trim().toLowerCase();
  const eq = (v: string | undefined) => v?.trim().toLowerCase();
  const skill = eq(query.skill);
  const role = eq(query.role);
  const location = eq(query.location);
  return (row) =>
    (!query.status || row.status === query.status) &&
    (!query.team || row.teamId === query.team) &&
    (!role || row.title.trim().toLowerCase() === role) &&
    (!location || row.location.trim().toLowerCase() === location) &&
    (!skill || row.skills.some((s) => s.trim().toLowerCase() === skill)) &&
    (!q ||
      row.name.toLowerCase().includes(q) ||
      row.title.toLowerCase().includes(q) ||
      row.bio.toLowerCase().includes(q));
}

/**
 * Every directory shard (and, for the posts sort, their post counts) in one batch read, with the team
 * a `team` filter names (64 or 128 keys and the team: still one or two BatchGets).
 */
async function readProjection(
  withPosts: boolean,
  teamId?: string,
): Promise<{ rows: DirectoryRow[]; posts: (id: string) => number; team?: TeamItem }> {
  const shards = Array.from({ length: DIRECTORY_SHARDS }, (_, shard) => shard);
  const rowsKey = (shard: number) => DirectoryShard.key({ shard });
  const postsKey = (shard: number) => DirectoryShardPosts.key({ shard });
  const teamKey = teamId ? Team.key({ id: teamId }) : undefined;
  // One batch read of three entities' items (untyped), each told by its entity. A posts item of the
  // 0.1.0 form (stored as `DirectoryShard`, renamed by migration 0001) counts as well.
  const found = await getMany([
    ...shards.map(rowsKey),
    ...(withPosts ? shards.map(postsKey) : []),
    ...(teamKey ? [teamKey] : []),
  ]);
  const rows = shards.flatMap((shard) => {
    const item = found.get(keyString(rowsKey(shard)));
    return DirectoryShard.is(item) ? rowsOf(item) : [];
  });
  const posts = (id: string) => shardPostCount(found.get(keyString(postsKey(shardOf(id)))), id);
  const stored = teamKey ? found.get(keyString(teamKey)) : undefined;
  return { rows, posts, team: Team.is(stored) ? stored : undefined };
}

async function searchProjection(query: DirectoryQuery): Promise<DirectoryPage> {
  const scope = `people|${JSON.stringify([query.q?.trim().toLowerCase() ?? '', query.skill ?? '', query.role ?? '', query.location ?? '', query.team ?? '', query.status ?? '', query.sort])}`;
  const after = decodeCursor(scope, query.cursor) as Ranked | undefined;
  // A deleted team has no people, even while rows still name it (team-deletion.ts clears them later):
  // the team rides on the shards' batch read, so the filter costs no request of its own.
  const { rows, posts, team } = await readProjection(query.sort === 'posts', query.team);
  if (query.team && (!team || team.deletingAt)) return { users: [], nextCursor: null };
  const matches = matcher(query);
  const compare = comparators[query.sort];
  const ranked = rows
    .filter(matches)
    .map((r): Ranked => ({ id: r.id, n: nameKey(r.name), j: r.joinedAt, p: query.sort === 'posts' ? posts(r.id) : 0 }))
    .filter((r) => !after || compare(r, after) > 0)
    .sort(compare);
  const page = ranked.slice(0, query.limit);
  const more = ranked.length > query.limit;
  const people = await getUsers(page.map((r) => r.id));
  return {
    users: page.map((r) => people.get(r.id)).filter((u): u is UserItem => !!u && u.status !== 'deactivated'),
    nextCursor: more ? encodeCursor(scope, { ...page[page.length - 1] }) : null,
  };
}

/** Distinct values held by listed people, de-duplicated case-insensitively, sorted (one Query). */
async function facetValues(kind?: FacetKind): Promise<{ kind: string; value: string }[]> {
  const items = await DirectoryFacet.queryAll({
    key: kind ? { kind } : {},
    filter: {
      FilterExpression: '#p > :zero',
      ExpressionAttributeNames: { '#p': 'people' },
      ExpressionAttributeValues: { ':zero': 0 },
    },
  });
  return items;
}

export async function directorySkills(): Promise<string[]> {
  return (await facetValues('skill')).map((f) => f.value);
}

export async function directoryFacets(): Promise<{ skills: string[]; titles: string[]; locations: string[] }> {
  const all = await facetValues();
  const of = (kind: string) => all.filter((f) => f.kind === kind).map((f) => f.value);
  return { skills: of('skill'), titles: of('title'), locations: of('location') };
}

/**
 * The org chart: every listed person, flat, in the name index's order, from the roster document
 * (roster.ts: its DynamoDB reads are the pending changes only). A manager who is not listed
 * (deactivated) is not in the chart, so their reports show as roots rather than dangling.
 */
export async function orgChart() {
  const people = listedByName(await roster());
  const listed = new Set(people.map((u) => u.id));
  return people.map((u) => ({
    id: u.id,
    name: u.name,
    image: u.image ?? null,
    title: u.title ?? '',
    currentWork: u.currentWork ?? '',
    status: u.status,
    managerId: u.managerId && listed.has(u.managerId) ? u.managerId : null,
  }));
}
