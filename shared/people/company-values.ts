import type { CompanyValues, UserFields } from './entities.ts';

export type { CompanyValues };

/**
 * What the company says about a person, as opposed to what the person says about themselves
 * (docs/audiences.md, "What selects"). The specification lets a person edit their own department,
 * team, manager and location (`PATCH /users/me/profile`); an audience selects by the values the
 * company set instead: the last value a super admin (another person), SCIM or the service itself
 * (member creation, a team's deletion, an erasure) gave the field. A person's own edit changes what
 * their profile shows, never these.
 *
 * Stored on the profile as `company` from the first change after which it differs from the profile's own values: absent, the
 * profile's values are the company's (every person the company made and nobody edited since, and
 * every profile written before this field existed: their values count as the company's, a stated caveat).
 */
export const COMPANY_FIELDS = ['department', 'teamId', 'managerId', 'location'] as const;
export type CompanyField = (typeof COMPANY_FIELDS)[number];

type Source = Partial<Pick<UserFields, CompanyField>> & { company?: CompanyValues };

/** The profile's own values of the company's fields. */
export const ownValues = (u: Source): CompanyValues => ({
  department: u.department ?? '',
  teamId: u.teamId ?? null,
  managerId: u.managerId ?? null,
  location: u.location ?? '',
});

/** The company's values of a person: `company` when stored, else the profile's own. */
export const companyValuesOf = (u: Source): CompanyValues => u.company ?? ownValues(u);

const same = (a: CompanyValues, b: CompanyValues) => COMPANY_FIELDS.every((f) => a[f] === b[f]);

/**
 * The company's values after a change of a person from `before` to `after`: a change the person made
 * themselves (`bySelf`) keeps them; any other change takes each field it changed, and each it set
 * explicitly (`sets`: a super admin or SCIM confirming a value the person had given themselves).
 * `after.company`, when the change rewrote it (an erasure replacing a manager's id), is the base.
 * Answers the profile with `company`, left absent while it is and stays the profile's own values.
 */
export function withCompanyValues<U extends UserFields>(
  before: UserFields,
  after: U,
  change: { bySelf: boolean; sets?: readonly CompanyField[] },
): U {
  const base = after.company ?? companyValuesOf(before);
  const next = { ...base };
  if (!change.bySelf) {
    const was = ownValues(before);
    const now = ownValues(after);
    const into = next as Record<CompanyField, string | null>;
    for (const f of COMPANY_FIELDS) if (change.sets?.includes(f) || now[f] !== was[f]) into[f] = now[f];
  }
  if (!before.company && !after.company && same(next, ownValues(after))) return after;
  return { ...after, company: next };
}
