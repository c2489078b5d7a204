import type { CompanyValues } from '../people/company-values.ts';
import type { Rule } from './rule.ts';

/** A person as a rule sees them: the company's values, role and status (docs/audiences.md, "What selects"). */
export interface Candidate {
  id: string;
  role: string;
  status: string;
  company: CompanyValues;
}

/** What a rule's references resolve to now: the open teams, and each SCIM group's (team's) id by lower-cased name. */
export interface Resolved {
  openTeams: Set<string>;
  groups: Map<string, string>;
}

/**
 * The people a rule selects among `people` (the whole company, every status): never a deactivated
 * person. `not` is the rest of the company that may be selected; `managerId` selects the people whose
 * manager (the company's value) it is, and with `chain` everybody below them, through deactivated
 * managers too; a team or group that is gone, and a person who is not there, select nobody. Pure and
 * linear: O(nodes × people), plus one pass to index managers when a rule asks for a chain.
 */
export function selectPeople(rule: Rule, people: Candidate[], resolved: Resolved): Set<string> {
  const eligible = people.filter((p) => p.status !== 'deactivated');
  const eligibleIds = new Set(eligible.map((p) => p.id));
  let reports: Map<string, string[]> | undefined;
  const reportsOf = () => {
    if (reports) return reports;
    reports = new Map();
    for (const p of people) {
      const m = p.company.managerId;
      if (!m) continue;
      const list = reports.get(m);
      if (list) list.push(p.id);
      else reports.set(m, [p.id]);
    }
    return reports;
  };
  const where = (test: (p: Candidate) => boolean) => new Set(eligible.filter(test).map((p) => p.id));
  const evaluate = (r: Rule): Set<string> => {
    if ('all' in r) {
      const [first, ...rest] = r.all.map(evaluate);
      return new Set([...(first ?? [])].filter((id) => rest.every((s) => s.has(id))));
    }
    if ('any' in r) {
      const out = new Set<string>();
      for (const s of r.any.map(evaluate)) for (const id of s) out.add(id);
      return out;
    }
    if ('not' in r) {
      const inner = evaluate(r.not);
      return new Set([...eligibleIds].filter((id) => !inner.has(id)));
    }
    if ('department' in r) return where((p) => p.company.department === r.department);
    if ('teamId' in r) {
      if (!resolved.openTeams.has(r.teamId)) return new Set();
      return where((p) => p.company.teamId === r.teamId);
    }
    if ('scimGroup' in r) {
      const team = resolved.groups.get(r.scimGroup.toLowerCase());
      if (!team || !resolved.openTeams.has(team)) return new Set();
      return where((p) => p.company.teamId === team);
    }
    if ('role' in r) return where((p) => p.role === r.role);
    if ('location' in r) return where((p) => p.company.location === r.location);
    if ('userIds' in r) return new Set(r.userIds.filter((id) => eligibleIds.has(id)));
    if ('managerId' in r) {
      const below = new Set<string>();
      const queue = [...(reportsOf().get(r.managerId) ?? [])];
      while (queue.length) {
        const id = queue.pop()!;
        if (below.has(id) || id === r.managerId) continue;
        below.add(id);
        if (r.chain) queue.push(...(reportsOf().get(id) ?? []));
      }
      return new Set([...below].filter((id) => eligibleIds.has(id)));
    }
    return new Set();
  };
  return evaluate(rule);
}

/**
 * Whether a rule selects one person, as `selectPeople` would among the whole company, without a pass
 * over it: O(nodes × the person's manager chain). `managerOf` maps each person to their manager (the
 * company's value), for the chain. For a person who just changed (a dynamic audience's joiner).
 */
export function selectsPerson(
  rule: Rule,
  person: Candidate,
  managerOf: Map<string, string | null>,
  resolved: Resolved,
): boolean {
  if (person.status === 'deactivated') return false;
  const p = person;
  const below = (managerId: string, chain: boolean): boolean => {
    const seen = new Set<string>([p.id]);
    let m = p.company.managerId;
    while (m && !seen.has(m)) {
      if (m === managerId) return true;
      if (!chain) return false;
      seen.add(m);
      m = managerOf.get(m) ?? null;
    }
    return false;
  };
  const test = (r: Rule): boolean => {
    if ('all' in r) return r.all.every(test);
    if ('any' in r) return r.any.some(test);
    if ('not' in r) return !test(r.not);
    if ('department' in r) return p.company.department === r.department;
    if ('teamId' in r) return resolved.openTeams.has(r.teamId) && p.company.teamId === r.teamId;
    if ('scimGroup' in r) {
      const team = resolved.groups.get(r.scimGroup.toLowerCase());
      return !!team && resolved.openTeams.has(team) && p.company.teamId === team;
    }
    if ('role' in r) return p.role === r.role;
    if ('location' in r) return p.company.location === r.location;
    if ('userIds' in r) return r.userIds.includes(p.id);
    if ('managerId' in r) return r.managerId !== p.id && below(r.managerId, !!r.chain);
    return false;
  };
  return test(rule);
}
