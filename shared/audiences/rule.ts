import { Department, Role } from '../people/profile-fields.ts';

/**
 * An audience's rule (docs/audiences.md): an expression over what the company controls, joined with
 * AND (`all`), OR (`any`) and NOT (`not`). Each node is an object with exactly one kind; `managerId`
 * may carry `chain`. The shape is the and only ever grows (a new kind), never changes.
 */
export type Rule =
  | { all: Rule[] }
  | { any: Rule[] }
  | { not: Rule }
  | { department: string }
  | { teamId: string }
  | { managerId: string; chain?: boolean }
  | { role: 'member' | 'super_admin' }
  | { location: string }
  | { userIds: string[] }
  | { scimGroup: string };

export const RULE_KINDS = [
  'all',
  'any',
  'not',
  'department',
  'teamId',
  'managerId',
  'role',
  'location',
  'userIds',
  'scimGroup',
] as const;

/** How large a rule may be: levels of nesting, nodes in all, named people in all, and each text's length. */
export const RULE_LIMITS = { depth: 8, nodes: 100, userIds: 1000, id: 200, location: 120, scimGroup: 60 } as const;

export interface RuleProblem {
  path: (string | number)[];
  message: string;
}

const DEPARTMENTS = Department.options.filter((d) => d !== '');
const ROLES = Role.options as readonly string[];

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks a rule's shape and bounds (no reads): the problems, each with its path inside the rule, and
 * the rule itself when there are none. Stops descending past the depth bound, so a hostile nesting
 * costs no more than the bound.
 */
export function checkRule(value: unknown): { rule?: Rule; problems: RuleProblem[] } {
  const problems: RuleProblem[] = [];
  let nodes = 0;
  let userIds = 0;
  const fail = (path: (string | number)[], message: string) => {
    if (problems.length < 20) problems.push({ path, message });
  };
  const text = (path: (string | number)[], v: unknown, max: number): void => {
    if (typeof v !== 'string' || !v.trim()) fail(path, 'must be a non-empty string');
    else if (v.length > max) fail(path, `must be at most ${max} characters`);
    else if (v !== v.trim()) fail(path, 'must not begin or end with blanks');
  };
  const visit = (node: unknown, path: (string | number)[], depth: number): void => {
    nodes += 1;
    if (nodes === RULE_LIMITS.nodes + 1) fail([], `a rule may have at most ${RULE_LIMITS.nodes} nodes`);
    if (depth > RULE_LIMITS.depth) {
      fail(path, `a rule may nest at most ${RULE_LIMITS.depth} levels`);
      return;
    }
    if (!isObject(node)) {
      fail(path, `must be an object with one of: ${RULE_KINDS.join(', ')}`);
      return;
    }
    const keys = Object.keys(node);
    const kinds = keys.filter((k) => (RULE_KINDS as readonly string[]).includes(k));
    if (kinds.length !== 1) {
      fail(
        path,
        kinds.length
          ? `must have exactly one of ${RULE_KINDS.join(', ')} (found ${kinds.join(', ')})`
          : `must have one of: ${RULE_KINDS.join(', ')}`,
      );
      return;
    }
    const kind = kinds[0]!;
    const extra = keys.filter((k) => k !== kind && !(kind === 'managerId' && k === 'chain'));
    if (extra.length) fail(path, `unknown field: ${extra.join(', ')}`);
    const v = node[kind];
    const at = [...path, kind];
    switch (kind) {
      case 'all':
      case 'any':
        if (!Array.isArray(v) || v.length === 0) fail(at, 'must be a non-empty list of rules');
        else if (v.length > RULE_LIMITS.nodes) fail(at, `must have at most ${RULE_LIMITS.nodes} rules`);
        else
          v.forEach((child, i) => {
            visit(child, [...at, i], depth + 1);
          });
        return;
      case 'not':
        visit(v, at, depth + 1);
        return;
      case 'department':
        if (typeof v !== 'string' || !DEPARTMENTS.includes(v as never))
          fail(at, `must be one of: ${DEPARTMENTS.join(', ')}`);
        return;
      case 'role':
        if (typeof v !== 'string' || !ROLES.includes(v)) fail(at, `must be one of: ${ROLES.join(', ')}`);
        return;
      case 'teamId':
        text(at, v, RULE_LIMITS.id);
        return;
      case 'managerId':
        text(at, v, RULE_LIMITS.id);
        if ('chain' in node && typeof node.chain !== 'boolean') fail([...path, 'chain'], 'must be true or false');
        return;
      case 'location':
        text(at, v, RULE_LIMITS.location);
        return;
      case 'scimGroup':
        text(at, v, RULE_LIMITS.scimGroup);
        return;
      case 'userIds': {
        if (!Array.isArray(v) || v.length === 0) {
          fail(at, 'must be a non-empty list of person ids');
          return;
        }
        userIds += v.length;
        if (userIds > RULE_LIMITS.userIds && userIds - v.length <= RULE_LIMITS.userIds)
          fail(at, `a rule may name at most ${RULE_LIMITS.userIds} people in all`);
        if (userIds > RULE_LIMITS.userIds) return;
        v.forEach((id, i) => {
          text([...at, i], id, RULE_LIMITS.id);
        });
        if (new Set(v).size !== v.length) fail(at, 'must not name a person twice');
        return;
      }
    }
  };
  visit(value, [], 1);
  return problems.length ? { problems } : { rule: value as Rule, problems };
}

/** The references a rule makes, checked against the company on write (audiences.ts). */
export interface RuleReferences {
  teamIds: Set<string>;
  managerIds: Set<string>;
  userIds: Set<string>;
  scimGroups: Set<string>;
}

export function referencesOf(rule: Rule): RuleReferences {
  const refs: RuleReferences = { teamIds: new Set(), managerIds: new Set(), userIds: new Set(), scimGroups: new Set() };
  const walk = (r: Rule): void => {
    if ('all' in r) r.all.forEach(walk);
    else if ('any' in r) r.any.forEach(walk);
    else if ('not' in r) walk(r.not);
    else if ('teamId' in r) refs.teamIds.add(r.teamId);
    else if ('managerId' in r) refs.managerIds.add(r.managerId);
    else if ('userIds' in r) for (const id of r.userIds) refs.userIds.add(id);
    else if ('scimGroup' in r) refs.scimGroups.add(r.scimGroup.toLowerCase());
  };
  walk(rule);
  return refs;
}

/**
 * The rule without a person's id in any `userIds` (an erasure, docs/people-data.md): a `userIds` left
 * empty selects nobody, as the people it named no longer exist (`{ userIds: [] }`, the one stored form
 * a write never takes). Undefined when the rule does not name them.
 */
export function ruleWithout(rule: Rule, userId: string): Rule | undefined {
  let changed = false;
  const walk = (r: Rule): Rule => {
    if ('all' in r) return { all: r.all.map(walk) };
    if ('any' in r) return { any: r.any.map(walk) };
    if ('not' in r) return { not: walk(r.not) };
    if ('userIds' in r && r.userIds.includes(userId)) {
      changed = true;
      return { userIds: r.userIds.filter((id) => id !== userId) };
    }
    return r;
  };
  const out = walk(rule);
  return changed ? out : undefined;
}
