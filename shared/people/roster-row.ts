import type { TransactItem } from '../db/table.ts';
import { listChange } from '../documents/changes.ts';
import { type CompanyValues, companyValuesOf } from './company-values.ts';
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
  'company',
] as const;

/**
 * The company's values of a person (company-values.ts) as a row stores them: `[department, teamId,
 * managerId, location]`, what audiences select by. Absent from rows written before audiences.
 */
export type CompanyRow = [string, string | null, string | null, string];
export const companyRow = (v: CompanyValues): CompanyRow => [v.department, v.teamId, v.managerId, v.location];
export const companyFromRow = (r: CompanyRow): CompanyValues => ({
  department: r[0] ?? '',
  teamId: r[1] ?? null,
  managerId: r[2] ?? null,
  location: r[3] ?? '',
});

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
  /** Undefined on a row written before audiences (the profile then says). */
  company?: CompanyRow;
}

type RowSource = Pick<UserFields, 'name' | 'email' | 'role' | 'status' | 'joinedAt'> &
  Partial<
    Pick<
      UserFields,
      | 'image'
      | 'title'
      | 'managerId'
      | 'isFeatured'
      | 'featuredNote'
      | 'currentWork'
      | 'department'
      | 'teamId'
      | 'location'
      | 'company'
    >
  >;

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
  companyRow(companyValuesOf(u)),
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
