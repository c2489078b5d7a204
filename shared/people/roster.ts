import type { Rows } from '../documents/changes.ts';
import { foldList, type ListSpec, readList } from '../documents/whole-list.ts';
import { User } from './entities.ts';
import { isListed, nameKey } from './listing.ts';
import { ROSTER, ROSTER_FIELDS, type RosterPerson, rosterRow } from './roster-row.ts';

export { ROSTER, type RosterPerson };

/**
 * The roster: every person (every status) as a compact row, the one whole-list document behind
 * `/admin/members`, `/org-chart`, `/attendance/employees`, today's attendance `employees` and
 * `/leave/context` (shared/documents/whole-list.ts; docs/data-model.md, Whole lists). Each answer is
 * computed from it at request time, the caller's own part (who they are, what they may see) applied
 * then; report counts are counted on it (listed people naming a manager), as `reportCount` counts them.
 */
const toPerson = (id: string, stored: unknown[]): RosterPerson => {
  const p = { id, rev: Number(stored[0]) } as Record<string, unknown>;
  ROSTER_FIELDS.forEach((field, i) => {
    p[field] = stored[i + 1];
  });
  return p as unknown as RosterPerson;
};

/** Every person read from the table: the members index, in pages (background, or before the first fold). */
async function rowsFromTable(): Promise<Rows> {
  const people = await User.queryAll({ index: 'members', key: {} });
  return new Map(people.map((u) => [u.id, [u.rev ?? 0, ...rosterRow(u)]]));
}

/** People by id, read consistently (a rebuild's check of rows the index did not show). */
async function rowsOf(ids: string[]): Promise<Rows> {
  const found = await User.getMany(
    ids.map((id) => ({ id })),
    { consistent: true },
  );
  return new Map(found.flatMap((u) => (u ? [[u.id, [u.rev ?? 0, ...rosterRow(u)]]] : [])));
}

export const rosterList: ListSpec = { doc: ROSTER, build: rowsFromTable, read: rowsOf };

/** Folds the roster's pending changes (the stream consumer; `full`: the refresh). */
export const foldRoster = (opts: { full?: boolean } = {}) => foldList(rosterList, opts);

/**
 * Every person as of now: the document with its pending changes (one Query of the change partition
 * and the bucket object), or, before the first fold ever, the members index read whole.
 */
export async function roster(): Promise<RosterPerson[]> {
  const rows = (await readList(ROSTER)) ?? (await rowsFromTable());
  return [...rows].map(([id, row]) => toPerson(id, row));
}

/**
 * Code-point order, which is DynamoDB's order of string sort keys (UTF-8 bytes): the order the
 * members and name indexes answered in when these lists were read from them.
 */
export function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(x) || surrogate(y)) return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
    return x - y;
  }
  return a.length - b.length;
}

const collator = new Intl.Collator();

/** Active people by name as `localeCompare` orders them, then by id (the employees and approvers lists). */
export function activeByName(people: RosterPerson[]): RosterPerson[] {
  return people
    .filter((p) => p.status === 'active')
    .sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.id, b.id));
}

/** Every account, newest first (the members index backwards: joining time, then id). */
export function newestFirst(people: RosterPerson[]): RosterPerson[] {
  const keyed = people.map((p) => ({ p, k: `${p.joinedAt}#${p.id}` }));
  keyed.sort((a, b) => byteOrder(b.k, a.k));
  return keyed.map((x) => x.p);
}

/** Listed people by the directory's name order (the name index: folded name, then id). */
export function listedByName(people: RosterPerson[]): RosterPerson[] {
  const keyed = people.filter(isListed).map((p) => ({ p, k: `${nameKey(p.name)}#${p.id}` }));
  keyed.sort((a, b) => byteOrder(a.k, b.k));
  return keyed.map((x) => x.p);
}

/** How many listed people name each person as their manager (what `reportCount` counts). */
export function reportCounts(people: RosterPerson[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of people) if (p.managerId && isListed(p)) counts.set(p.managerId, (counts.get(p.managerId) ?? 0) + 1);
  return counts;
}
