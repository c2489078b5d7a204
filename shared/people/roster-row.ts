import type { TransactItem } from '../db/table.ts';
import { listChange } from '../documents/changes.ts';
import type { UserFields, UserItem } from './entities.ts';

/**
 * The roster's rows (roster.ts): what a person's write stores of them for the whole lists, written in
 * the change's own transaction (derived-from-person.ts). A leaf of the people area: no S3 here.
 */
export const ROSTER = 'roster';

/** The fields of a roster row, in their stored order (after the row's rev). */
export const ROSTER_FIELDS = [
  'name',
  'email',
  'image',
  'title',
  'role',
  'status',
  'managerId',
  'joinedAt',
  'isFeatured',
  'featuredNote',
  'currentWork',
] as const;

export interface RosterPerson {
  id: string;
  rev: number;
  name: string;
  email: string;
  image: string | null;
  title: string;
  role: UserItem['role'];
  status: UserItem['status'];
  managerId: string | null;
  joinedAt: string;
  isFeatured: boolean;
  featuredNote: string;
  currentWork: string;
}

type RowSource = Pick<UserFields, 'name' | 'email' | 'role' | 'status' | 'joinedAt'> &
  Partial<Pick<UserFields, 'image' | 'title' | 'managerId' | 'isFeatured' | 'featuredNote' | 'currentWork'>>;

/** A person's stored row (without its rev). */
export const rosterRow = (u: RowSource): unknown[] => [
  u.name,
  u.email,
  u.image ?? null,
  u.title ?? '',
  u.role,
  u.status,
  u.managerId ?? null,
  u.joinedAt,
  !!u.isFeatured,
  u.featuredNote ?? '',
  u.currentWork ?? '',
];

/**
 * The roster change a person's write carries in its transaction (derived-from-person.ts), or none when
 * nothing the roster holds changed.
 */
export function rosterChange(before: RowSource | undefined, after: UserFields, rev: number): TransactItem[] {
  const row = rosterRow(after);
  if (before && JSON.stringify(rosterRow(before)) === JSON.stringify(row)) return [];
  return [listChange(ROSTER, after.id, rev, row)];
}
