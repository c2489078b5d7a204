import { describe, expect, it } from 'vitest';
import { pageOf, parseFilter } from '../../shared/scim/filter.ts';
import { applyPatch, displayNameOf, fromResource, signInAddressOf } from '../../shared/scim/user-attributes.ts';
import { departmentOf } from '../../shared/scim/users.ts';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const base = fromResource({ userName: 'ada@example.com', displayName: 'Ada', title: 'Engineer' });

describe('SCIM user attributes', () => {
  it('reads a resource, clearing what it leaves out and ignoring attributes not kept', () => {
    const a = fromResource({
      schemas: [],
      userName: 'Ada@Example.com',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      phoneNumbers: [{ value: '+1' }],
      [ENTERPRISE]: { department: 'Engineering', manager: { value: 'm1' } },
      active: 'False',
    });
    expect(a).toMatchObject({
      givenName: 'Ada',
      familyName: 'Lovelace',
      department: 'Engineering',
      manager: 'm1',
      active: false,
    });
    expect(a.title).toBeUndefined();
    expect(signInAddressOf(a)).toBe('ada@example.com');
    expect(displayNameOf(a)).toBe('Ada Lovelace');
    expect(() => fromResource({ displayName: 'x' })).toThrow(/userName/);
    expect(() => signInAddressOf(fromResource({ userName: 'ada' }))).toThrow(/e-mail address/);
  });

  it('applies PATCH operations in any case, with and without a path', () => {
    const patched = applyPatch(base, {
      Operations: [
        { op: 'Replace', path: 'title', value: 'Lead' },
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: 'boss' },
        { op: 'replace', value: { active: 'False', 'name.familyName': 'L', [ENTERPRISE]: { department: 'Design' } } },
        { op: 'add', path: 'emails[type eq "work"].value', value: 'ada@example.com' },
      ],
    });
    expect(patched).toMatchObject({
      title: 'Lead',
      manager: 'boss',
      active: false,
      familyName: 'L',
      department: 'Design',
    });
    const removed = applyPatch(patched, {
      operations: [
        { op: 'Remove', path: 'title' },
        { op: 'remove', path: `${ENTERPRISE}:manager` },
      ],
    });
    expect(removed.title).toBeUndefined();
    expect(removed.manager).toBeNull();
    expect(base.title).toBe('Engineer'); // the current attributes are not changed in place
    expect(() => applyPatch(base, { Operations: [{ op: 'remove' }] })).toThrow(/path/);
    expect(() => applyPatch(base, { Operations: [{ op: 'copy', path: 'title' }] })).toThrow(/op/);
    expect(() => applyPatch(base, {})).toThrow(/Operations/);
    expect(() => applyPatch(base, { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] })).toThrow(
      /true or false/,
    );
  });

  it('matches departments by name and leaves an unknown one as none', () => {
    expect(departmentOf('Engineering')).toBe('engineering');
    expect(departmentOf('Business Development')).toBe('business_development');
    expect(departmentOf(' HR ')).toBe('hr');
    expect(departmentOf('Quantum Research')).toBe('');
    expect(departmentOf(undefined)).toBe('');
  });
});

describe('SCIM filters and pages', () => {
  it('reads exact-value comparisons joined with and, case-insensitively', () => {
    const f = parseFilter('UserName EQ "a@b.co" and externalId eq "x \\"1\\""', ['userName', 'externalId']);
    expect([...f]).toEqual([
      ['userName', 'a@b.co'],
      ['externalId', 'x "1"'],
    ]);
    expect(parseFilter(undefined, ['userName']).size).toBe(0);
    for (const bad of ['userName co "a"', 'title eq "a"', 'userName eq "a" or userName eq "b"', 'userName eq a'])
      expect(() => parseFilter(bad, ['userName', 'externalId']), bad).toThrow(/Unsupported filter/);
  });

  it('reads startIndex and count as RFC 7644 does', () => {
    expect(pageOf(undefined, undefined, 100)).toEqual({ startIndex: 1, count: 100 });
    expect(pageOf('0', '500', 100)).toEqual({ startIndex: 1, count: 100 });
    expect(pageOf('5', '-1', 100)).toEqual({ startIndex: 5, count: 0 });
    expect(() => pageOf('x', undefined, 100)).toThrow(/startIndex/);
  });
});
