import { describe, expect, it } from 'vitest';
import { companyValuesOf, withCompanyValues } from './company-values.ts';
import type { UserFields } from './entities.ts';
import { blankProfile } from './users.ts';

/** The company's values of a person (audiences select by them): what a person's own edit never moves. */
describe('the company values of a person', () => {
  const person = (over: Partial<UserFields> = {}): UserFields => ({
    ...blankProfile(),
    id: 'p1',
    email: 'p1@example.com',
    name: 'P One',
    role: 'member',
    status: 'active',
    joinedAt: '2026-01-01T00:00:00.000Z',
    department: 'engineering',
    location: 'Berlin',
    managerId: 'ana',
    ...over,
  });

  it('are the profile’s own while nobody edited themselves: nothing stored', () => {
    const before = person();
    const after = withCompanyValues(before, person({ location: 'Hamburg' }), { bySelf: false });
    expect(after.company).toBeUndefined();
    expect(companyValuesOf(after)).toMatchObject({ location: 'Hamburg', department: 'engineering' });
  });

  it("stay as the company set them when the person edits their own; the company's next change of a field takes it", () => {
    const self = withCompanyValues(person(), person({ location: 'Paris', department: 'product' }), { bySelf: true });
    expect(self.location).toBe('Paris');
    expect(companyValuesOf(self)).toEqual({
      department: 'engineering',
      teamId: null,
      managerId: 'ana',
      location: 'Berlin',
    });
    // A super admin changes the manager: only that field moves; the person's own location stays theirs.
    const admin = withCompanyValues(self, { ...self, managerId: 'lee' }, { bySelf: false });
    expect(companyValuesOf(admin)).toEqual({
      department: 'engineering',
      teamId: null,
      managerId: 'lee',
      location: 'Berlin',
    });
    // SCIM or a super admin naming the department confirms the person's value, though it does not change.
    const confirmed = withCompanyValues(admin, { ...admin }, { bySelf: false, sets: ['department'] });
    expect(companyValuesOf(confirmed).department).toBe('product');
    expect(companyValuesOf(confirmed).location).toBe('Berlin');
  });

  it('start from a rewritten `company` (an erasure replacing a manager)', () => {
    const self = withCompanyValues(person(), person({ managerId: 'lee' }), { bySelf: true });
    expect(companyValuesOf(self).managerId).toBe('ana');
    const rewritten = { ...self, company: { ...self.company!, managerId: null } };
    expect(companyValuesOf(withCompanyValues(self, rewritten, { bySelf: false })).managerId).toBeNull();
  });
});
