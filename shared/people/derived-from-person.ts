import type { Item, TransactItem } from '../db/table.ts';
import { indexKeys } from '../db/table-definition.ts';
import { updateExpression } from '../db/update-expression.ts';
import { rowOf, rowWrite, termsOf } from './directory-terms.ts';
import {
  DirectoryFacet,
  DirectoryPerson,
  DirectoryShard,
  DirectoryTerm,
  type FacetKind,
  POSTS_INDEX,
  Team,
  TeamMember,
  User,
  type UserFields,
  type UserItem,
} from './entities.ts';
import { isListed, legacyRowAttribute, rowAttribute, shardOf, shardRows } from './listing.ts';
import { rosterChange } from './roster-row.ts';

/**
 * What the people area derives from a person, and the writes that keep it in step. Every change of a
 * person goes through `personWrites`, inside the transaction of the change itself:
 * - the profile item's directory index attributes (sort keys for name, posts and joining time, sparse
 *   partition keys while the person is listed);
 * - their compact row in a directory shard (free text and filters read the shards, see directory.ts);
 * - the facet counters of their skills, title and location (`/people/skills`, `/people/facets`);
 * - the team's `memberCount` and the manager's `reportCount`, and the team membership item;
 * - their roster row, when it changed (roster-row.ts: the whole lists' document, applied by every
 *   request until the background folds it in).
 */

/** The numeric sort key of the posts index (`User`): moved with ADD together with `postCount` (post-count.ts). */
export const POSTS_SORT_ATTRIBUTE = indexKeys(POSTS_INDEX).sk;

/** A person as the directory projection holds them: what `q`, the filters and the sorts need. */
export interface DirectoryRow {
  id: string;
  name: string;
  title: string;
  location: string;
  bio: string;
  skills: string[];
  teamId: string | null;
  status: 'active' | 'pending';
  joinedAt: string;
}

/**
 * The fields of a stored row, in their stored order: a row is stored as a bare list of values (no
 * field names), which keeps a shard item, read whole by every directory query, as small as it can be.
 */
const ROW_FIELDS = ['name', 'title', 'location', 'bio', 'skills', 'teamId', 'status', 'joinedAt'] as const;
type RowFields = Omit<DirectoryRow, 'id'>;

const shardRowOf = (u: UserFields): RowFields => ({
  name: u.name,
  title: u.title ?? '',
  location: u.location ?? '',
  bio: u.bio ?? '',
  skills: u.skills ?? [],
  teamId: u.teamId ?? null,
  status: u.status as DirectoryRow['status'],
  joinedAt: u.joinedAt,
});
const encodeRow = (row: RowFields): unknown[] => ROW_FIELDS.map((field) => row[field]);
const storedRow = (u: UserFields) => encodeRow(shardRowOf(u));

/** The rows of one shard item. */
export function rowsOf(shard: Record<string, unknown> | undefined): DirectoryRow[] {
  if (!shard) return [];
  const rows: DirectoryRow[] = [];
  for (const [id, value] of shardRows(shard)) {
    if (!Array.isArray(value)) continue;
    const fields = Object.fromEntries(ROW_FIELDS.map((field, i) => [field, value[i]])) as RowFields;
    rows.push({ id, ...fields });
  }
  return rows;
}

interface Facet {
  kind: FacetKind;
  lower: string;
  value: string;
}

/** The facet values a listed person contributes (none when deactivated), de-duplicated case-insensitively. */
function facetsOf(u: UserFields | undefined): Map<string, Facet> {
  const out = new Map<string, Facet>();
  if (!u || !isListed(u)) return out;
  const add = (kind: FacetKind, value: string) => {
    const v = value.trim();
    if (!v) return;
    const lower = v.toLowerCase();
    if (!out.has(`${kind}#${lower}`)) out.set(`${kind}#${lower}`, { kind, lower, value: v });
  };
  for (const s of u.skills ?? []) add('skill', s);
  add('title', u.title ?? '');
  add('location', u.location ?? '');
  return out;
}

/** One more person holding a facet (the first spelling stays the one shown), or one fewer. */
const facetWrite = (f: Facet, delta: number): TransactItem =>
  delta > 0
    ? DirectoryFacet.update(
        { kind: f.kind, value: f.lower },
        {
          UpdateExpression: 'ADD #p :d SET #v = if_not_exists(#v, :v), entity = :e, #k = :k',
          ExpressionAttributeNames: { '#p': 'people', '#v': 'value', '#k': 'kind' },
          ExpressionAttributeValues: { ':d': delta, ':v': f.value, ':e': DirectoryFacet.name, ':k': f.kind },
        },
      )
    : DirectoryFacet.add({ kind: f.kind, value: f.lower }, { people: delta });

/** The condition on a person whose `rev` was read as `rev` (items written before revisions have none). */
export function revCondition(rev: number | undefined): { expression: string; values: Record<string, unknown> } {
  return rev === undefined
    ? { expression: 'attribute_not_exists(rev)', values: {} }
    : { expression: 'rev = :rev', values: { ':rev': rev } };
}

/** A team that can be joined: it exists and is not deleted (`deletingAt`: its people are being unassigned). */
const teamExists = 'attribute_exists(pk) AND attribute_not_exists(deletingAt)';

/** Where a reference's counter lives: a team's `memberCount`, a manager's `reportCount`. */
type Counted = typeof Team | typeof User;

/** Conditional counter moves (field → delta, zeros left out), or only the condition when nothing moves. */
function counterOrCheck(
  target: Counted,
  id: string,
  deltas: Record<string, number>,
  condition: string,
  values: Record<string, unknown> = {},
): TransactItem {
  const withValues = Object.keys(values).length ? { ExpressionAttributeValues: values } : {};
  const moves = Object.entries(deltas).filter(([, d]) => d !== 0);
  if (moves.length === 0) return target.check({ id }, { ConditionExpression: condition, ...withValues });
  return target.update(
    { id },
    {
      UpdateExpression: `ADD ${moves.map((_, i) => `#f${i} :d${i}`).join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: Object.fromEntries(moves.map(([f], i) => [`#f${i}`, f])),
      ExpressionAttributeValues: { ...Object.fromEntries(moves.map(([, d], i) => [`:d${i}`, d])), ...values },
    },
  );
}

/**
 * The counter moves and existence checks of one reference (a team, a manager) changing from `oldRef`
 * to `newRef`: counted only while the person is listed; a newly named target must exist.
 */
function referenceWrites(
  field: 'memberCount' | 'reportCount',
  target: Counted,
  refs: { oldRef: string | null; newRef: string | null; wasListed: boolean; listed: boolean },
  existsCondition: string,
  extra: Map<string, { expression: string; values: Record<string, unknown> }> = new Map(),
  skip?: string,
  /** Further counters of a target moved in the same write (a team's `memberships`). */
  adds: Map<string, Record<string, number>> = new Map(),
): TransactItem[] {
  const dec = refs.wasListed ? refs.oldRef : null;
  const inc = refs.listed ? refs.newRef : null;
  const moves = new Map<string, { delta: number; mustExist: boolean }>();
  const at = (id: string) => moves.get(id) ?? moves.set(id, { delta: 0, mustExist: false }).get(id)!;
  if (dec && dec !== inc && dec !== skip) at(dec).delta -= 1;
  if (inc && inc !== dec) at(inc).delta += 1;
  if (refs.newRef && refs.newRef !== refs.oldRef) at(refs.newRef).mustExist = true;
  for (const id of extra.keys()) at(id);
  for (const id of adds.keys()) at(id);
  const items: TransactItem[] = [];
  for (const [id, move] of moves) {
    const conditions = [move.mustExist ? existsCondition : 'attribute_exists(pk)'];
    const e = extra.get(id);
    if (e) conditions.push(e.expression);
    const deltas = { [field]: move.delta, ...adds.get(id) };
    items.push(counterOrCheck(target, id, deltas, conditions.join(' AND '), e?.values));
  }
  return items;
}

export interface PersonWriteOptions {
  actorId: string | null;
  /**
   * People whose manager chain the change relies on (id → the `rev` read): each is checked, so two
   * concurrent manager changes cannot close a loop.
   */
  chain?: Map<string, number | undefined>;
  /** The team is being deleted: its counters are left alone (they go with the team). */
  teamGone?: string;
  /**
   * Whether the directory shards are still read (until migration 0013 has built the per-person rows,
   * directory.ts): then the person's shard row moves too. Default true.
   */
  shards?: boolean;
}

/**
 * The writes that keep everything derived from a person in step with their change from `before`
 * (undefined for a new person) to `after`, without the profile item itself. New references carry
 * their existence as conditions (a team being deleted counts as gone), so a transaction that fails on
 * one means "read again": the caller re-validates and answers 400 if the reference is really gone.
 */
export function derivedWrites(
  before: UserFields | undefined,
  after: UserFields,
  opts: PersonWriteOptions,
): TransactItem[] {
  const items: TransactItem[] = [];
  const id = after.id;
  const wasListed = !!before && isListed(before);
  const listed = isListed(after);

  // Directory shard row.
  const rowChanged = !before || JSON.stringify(storedRow(before)) !== JSON.stringify(storedRow(after));
  const shard = shardOf(id);
  const stamp = { shard, entity: DirectoryShard.name };
  // A 0.1.0 row (`r_<id>`, until migration 0008) goes with every write of the row, so it never outlives it.
  const legacy = legacyRowAttribute(id);
  if (opts.shards === false) {
    // The shards are no longer read (0013 done) and go (0014): nothing writes them any more.
  } else if (listed && (!wasListed || rowChanged)) {
    items.push(
      DirectoryShard.update({ shard }, updateExpression({ [rowAttribute(id)]: storedRow(after), ...stamp }, [legacy])),
    );
  } else if (!listed && wasListed) {
    items.push(DirectoryShard.update({ shard }, updateExpression(stamp, [rowAttribute(id), legacy])));
  }

  // Facet counters.
  const oldFacets = facetsOf(before);
  const newFacets = facetsOf(after);
  for (const [k, f] of oldFacets) if (!newFacets.has(k)) items.push(facetWrite(f, -1));
  for (const [k, f] of newFacets) if (!oldFacets.has(k)) items.push(facetWrite(f, 1));

  // Team size and membership (the membership lists everybody whose teamId names the team, and the
  // team's `memberships` counts those items, moved with them; `membershipMoves` only ever grows).
  const oldTeam = before?.teamId ?? null;
  const newTeam = after.teamId ?? null;
  const membershipMoves = new Map<string, Record<string, number>>();
  if (oldTeam !== newTeam) {
    if (oldTeam && oldTeam !== opts.teamGone) membershipMoves.set(oldTeam, { memberships: -1, membershipMoves: 1 });
    if (newTeam) membershipMoves.set(newTeam, { memberships: 1, membershipMoves: 1 });
  }
  items.push(
    ...referenceWrites(
      'memberCount',
      Team,
      { oldRef: oldTeam, newRef: newTeam, wasListed, listed },
      teamExists,
      undefined,
      opts.teamGone,
      membershipMoves,
    ),
  );
  if (oldTeam !== newTeam) {
    if (oldTeam) items.push(TeamMember.remove({ teamId: oldTeam, userId: id }));
    if (newTeam) items.push(TeamMember.put({ teamId: newTeam, userId: id, actorId: opts.actorId ?? undefined }));
  }

  // Report counts; the manager chain's checks ride on the same items.
  const chain = new Map(
    [...(opts.chain ?? [])]
      .filter(([personId]) => personId !== id)
      .map(([personId, rev]) => [personId, revCondition(rev)]),
  );
  const managers = { oldRef: before?.managerId ?? null, newRef: after.managerId ?? null, wasListed, listed };
  items.push(...referenceWrites('reportCount', User, managers, 'attribute_exists(pk)', chain));
  return items;
}

/** Whether a change moves what the person's directory row holds (not its `rev` or post count). */
function rowFieldsChanged(before: UserFields, after: UserFields): boolean {
  const fields = (u: UserFields) => {
    const { rev: _rev, postCount: _posts, ...rest } = rowOf({ ...u, postCount: 0 }, 0);
    return JSON.stringify(rest);
  };
  return fields(before) !== fields(after);
}

/**
 * The change of a person as one transaction's items: the profile item (conditioned on the revision
 * read, so concurrent changes never interleave), changed in place with its index attributes
 * (`User.change`), and everything derived from it. Empty when nothing changes.
 */
export function personWrites(before: UserItem, after: UserFields, opts: PersonWriteOptions): TransactItem[] {
  const next: Record<string, unknown> = { ...after, ...User.indexAttributes(after) };
  const was: Record<string, unknown> = before;
  const unchanged = Object.entries(next).every(
    ([k, v]) => k === 'pk' || k === 'sk' || JSON.stringify(v) === JSON.stringify(was[k]),
  );
  if (unchanged) return [];
  const rev = revCondition(before.rev);
  const nextRev = (before.rev ?? 0) + 1;
  // The directory row, when what it holds changes: put whole with the post count the profile holds as
  // read, which the profile's condition then checks (a post counted meanwhile makes the change read again).
  const rowChanged = rowFieldsChanged(before, after);
  const posts =
    before.postCount === undefined
      ? { expression: 'attribute_not_exists(postCount)', values: {} }
      : { expression: 'postCount = :pc', values: { ':pc': before.postCount } };
  const condition = rowChanged ? `${rev.expression} AND ${posts.expression}` : rev.expression;
  const values = rowChanged ? { ...rev.values, ...posts.values } : rev.values;
  return [
    User.change(
      before,
      {
        ...after,
        rev: nextRev,
        updatedAt: new Date().toISOString(),
        ...(opts.actorId ? { actorId: opts.actorId } : {}),
      },
      {
        ConditionExpression: condition,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      },
    ),
    ...(rowChanged ? [rowWrite({ ...after, postCount: before.postCount ?? 0 }, nextRev)] : []),
    ...derivedWrites(before, after, opts),
    ...rosterChange(before, after, nextRev),
  ];
}

/**
 * The whole projection of a set of people as items (profile items with their index attributes,
 * directory rows and terms, facet counters, team memberships): what `personWrites` and `syncTerms`
 * would have written for them one by one on a deployment whose directory migrations are done (no
 * shards). For bulk loads (the benches) and rebuilds.
 */
export function projectionItems(users: UserFields[]): Item[] {
  const facets = new Map<string, Facet & { people: number }>();
  const items: Item[] = [];
  for (const u of users) {
    const rev = u.rev ?? 0;
    items.push(User.item({ ...u, rev }));
    const row = rowOf(u, rev);
    items.push(DirectoryPerson.item(row));
    for (const term of termsOf(row))
      items.push(DirectoryTerm.item({ userId: u.id, term, nameKey: row.nameKey, joinedAt: row.joinedAt }));
    if (u.teamId) items.push(TeamMember.item({ teamId: u.teamId, userId: u.id }));
    if (!isListed(u)) continue;
    for (const [k, f] of facetsOf(u)) {
      const known = facets.get(k);
      if (known) known.people++;
      else facets.set(k, { ...f, people: 1 });
    }
  }
  for (const f of facets.values()) items.push(DirectoryFacet.item({ kind: f.kind, value: f.value, people: f.people }));
  return items;
}

/** The profile item of a new person with its directory attributes, and the writes derived from it. */
export function newPersonWrites(
  user: UserFields,
  opts: PersonWriteOptions,
): { item: UserItem; derived: TransactItem[] } {
  const item = User.item({ ...user, rev: 0 });
  return {
    item,
    derived: [rowWrite(item, 0), ...derivedWrites(undefined, item, opts), ...rosterChange(undefined, item, 0)],
  };
}
