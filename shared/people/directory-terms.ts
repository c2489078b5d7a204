import { atRevision } from '../db/entity.ts';
import { retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { DirectoryPerson, type DirectoryPersonItem, DirectoryTerm, type UserFields } from './entities.ts';
import { isListed, nameKey } from './listing.ts';

/**
 * The directory's per-person forms (docs/data-model.md, People): a row per person (`DirectoryPerson`,
 * written in the transaction of every change of the person) and the person's terms (`DirectoryTerm`),
 * the postings `GET /people` reads a filter or `q` through (directory.ts).
 */

/** A value as the exact filters compare it: trimmed, lower-cased. */
export const exact = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();

/** The person's row, derived from the profile (its `postCount` too: the write is checked against it). */
export function rowOf(u: UserFields, rev: number): Omit<DirectoryPersonItem, 'pk' | 'sk' | 'entity'> {
  return {
    id: u.id,
    nameKey: nameKey(u.name),
    title: exact(u.title),
    location: exact(u.location),
    skills: [...new Set((u.skills ?? []).map(exact).filter(Boolean))],
    teamId: u.teamId ?? null,
    status: u.status,
    joinedAt: u.joinedAt,
    text: [u.name, u.title ?? '', u.bio ?? ''].map((s) => s.toLowerCase()).join('\n'),
    postCount: u.postCount ?? 0,
    rev,
  };
}

/**
 * The row's write at the person's new `rev` (only when what the row holds changes, derived-from-person.ts):
 * the whole item (its `postCount` is the profile's, which the
 * transaction checks, so a post counted meanwhile makes the change read again).
 */
export const rowWrite = (u: UserFields, rev: number): TransactItem => DirectoryPerson.put(rowOf(u, rev));

/** The distinct trigrams of a text (lower-cased, per line: a trigram never spans two fields). */
export function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.toLowerCase().split('\n')) {
    const chars = [...line];
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars.slice(i, i + 3).join(''));
  }
  return out;
}

/** The trigram term of three characters. */
export const trigramTerm = (t: string) => `q:${t}`;

/** The exact filter terms of a query (each must hold), as the row's terms name them. */
export const filterTerms = (f: {
  skill?: string;
  role?: string;
  location?: string;
  team?: string;
  pending?: boolean;
}) =>
  [
    f.team ? `m:${f.team}` : undefined,
    f.role !== undefined && exact(f.role) ? `t:${exact(f.role)}` : undefined,
    f.location !== undefined && exact(f.location) ? `l:${exact(f.location)}` : undefined,
    f.skill !== undefined && exact(f.skill) ? `s:${exact(f.skill)}` : undefined,
    f.pending ? 'p:pending' : undefined,
  ].filter((t): t is string => !!t);

/**
 * Every term of a row: none unless listed; its exact values (skills, title, location, team, and
 * `p:pending` for the few pending people: `status=active` is nearly everyone, read by the walk) and the
 * trigrams of its name, title and bio. Grows with the person's own text, never with the company.
 */
export function termsOf(
  row: Pick<DirectoryPersonItem, 'status' | 'title' | 'location' | 'skills' | 'teamId' | 'text'>,
) {
  const terms = new Set<string>();
  if (!isListed(row)) return terms;
  for (const s of row.skills) terms.add(`s:${s}`);
  if (row.title) terms.add(`t:${row.title}`);
  if (row.location) terms.add(`l:${row.location}`);
  if (row.teamId) terms.add(`m:${row.teamId}`);
  if (row.status === 'pending') terms.add('p:pending');
  for (const t of trigrams(row.text)) terms.add(trigramTerm(t));
  return terms;
}

/** Writes a transaction holds besides the row's check (DynamoDB takes 100). */
const CHUNK = 99;

/**
 * Brings a person's terms to their row as it is now: reads the row and the person's terms (one
 * consistent Get, one Query of their own partition), then puts the missing or moved ones and deletes
 * the ones the row no longer has, in transactions of up to 99 writes each checking the row's `rev`, so
 * a change of the person meanwhile makes it read and start again (its own sync then follows it). Run
 * after every change of a person (change-person.ts, members.ts) and by migration 0013; idempotent.
 * O(the person's terms), never the company's.
 */
export async function syncTerms(userId: string, read?: DirectoryPersonItem): Promise<void> {
  await retryOnConflict(
    async (attempt) => {
      // A row just read consistently (migration 0013) saves the first read.
      const writes = await termWrites(userId, attempt === 1 ? read : undefined);
      for (let i = 0; i < writes.length; i += CHUNK) await transact([...writes.slice(i, i + CHUNK), writes.check]);
    },
    // Every chunk holds the row's rev: a change of the person meanwhile fails it, and its own sync follows.
    { attempts: 8, fallback: () => undefined },
  );
}

/** The term writes a person's row asks for now, and the check of the row they were computed from. */
export async function termWrites(
  userId: string,
  read?: DirectoryPersonItem,
): Promise<TransactItem[] & { check: TransactItem }> {
  const [row, held] = await Promise.all([
    read ?? DirectoryPerson.get({ id: userId }, { consistent: true }),
    DirectoryTerm.queryAll({ key: { userId }, consistent: true }),
  ]);
  // A row only counted into (a post of someone not yet migrated, post-count.ts) has no terms yet.
  const whole = row && row.nameKey !== undefined && row.rev !== undefined ? row : undefined;
  const wanted = whole ? termsOf(whole) : new Set<string>();
  const have = new Map(held.map((t) => [t.term, t]));
  const writes: TransactItem[] = [];
  for (const t of held) if (!wanted.has(t.term)) writes.push(DirectoryTerm.remove({ userId, term: t.term }));
  for (const term of wanted) {
    const h = have.get(term);
    if (h && h.nameKey === whole!.nameKey && h.joinedAt === whole!.joinedAt) continue;
    writes.push(DirectoryTerm.put({ userId, term, nameKey: whole!.nameKey, joinedAt: whole!.joinedAt }));
  }
  const check = whole
    ? DirectoryPerson.check({ id: userId }, atRevision(whole.rev))
    : DirectoryPerson.check({ id: userId }, { ConditionExpression: 'attribute_not_exists(rev)' });
  return Object.assign(writes, { check });
}
