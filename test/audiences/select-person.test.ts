import { describe, expect, it } from 'vitest';
import type { Rule } from '../../shared/audiences/rule.ts';
import { type Candidate, type Resolved, selectPeople, selectsPerson } from '../../shared/audiences/select.ts';

/**
 * A dynamic audience's joiner is tested alone (`selectsPerson`, docs/audiences.md "Dynamic"): it must
 * agree with what the whole company's evaluation (`selectPeople`) selects, person by person, for every
 * kind of rule, chains, `not` and deactivated people included.
 */
describe('selectsPerson agrees with selectPeople', () => {
  // A deterministic generator, so a failure repeats.
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const departments = ['engineering', 'product', 'design'];
  const locations = ['Berlin', 'Paris'];
  const company = (): Candidate[] => {
    const people: Candidate[] = [];
    for (let i = 0; i < 40; i++)
      people.push({
        id: `p${i}`,
        role: rnd(8) === 0 ? 'super_admin' : 'member',
        status: rnd(10) === 0 ? 'deactivated' : 'active',
        company: {
          department: departments[rnd(3)]!,
          teamId: rnd(3) === 0 ? null : `t${rnd(3)}`,
          // Managers among earlier people, and now and then a cycle (a later person).
          managerId: i === 0 ? null : rnd(12) === 0 ? `p${rnd(40)}` : `p${rnd(i)}`,
          location: locations[rnd(2)]!,
        },
      });
    return people;
  };
  const leaf = (): Rule => {
    switch (rnd(7)) {
      case 0:
        return { department: departments[rnd(3)] as 'engineering' };
      case 1:
        return { teamId: `t${rnd(4)}` };
      case 2:
        return { managerId: `p${rnd(10)}`, chain: rnd(2) === 0 };
      case 3:
        return { role: rnd(2) ? 'member' : 'super_admin' };
      case 4:
        return { location: locations[rnd(2)]! };
      case 5:
        return { userIds: [`p${rnd(40)}`, `p${rnd(40)}`].filter((v, i, a) => a.indexOf(v) === i) };
      default:
        return { scimGroup: `Group ${rnd(3)}` };
    }
  };
  const rule = (depth: number): Rule => {
    if (depth === 0 || rnd(3) === 0) return leaf();
    const k = rnd(3);
    if (k === 0) return { not: rule(depth - 1) };
    const parts = [rule(depth - 1), rule(depth - 1)];
    return k === 1 ? { all: parts } : { any: parts };
  };
  const resolved: Resolved = {
    openTeams: new Set(['t0', 't1', 't2']),
    groups: new Map([
      ['group 0', 't0'],
      ['group 1', 't3'],
    ]),
  };

  it('on 300 random rules over random companies', () => {
    for (let n = 0; n < 300; n++) {
      const people = company();
      const r = rule(3);
      const all = selectPeople(r, people, resolved);
      const managerOf = new Map(people.map((p) => [p.id, p.company.managerId]));
      for (const p of people)
        expect(selectsPerson(r, p, managerOf, resolved), `${JSON.stringify(r)} ${p.id}`).toBe(all.has(p.id));
    }
  });
});
