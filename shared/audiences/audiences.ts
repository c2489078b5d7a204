import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { presentAtRevision } from '../db/entity.ts';
import { newId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, retryOnConflict, write } from '../db/table.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { companyValuesOf } from '../people/company-values.ts';
import { Team, TeamName, type UserItem } from '../people/entities.ts';
import { nameKey } from '../people/listing.ts';
import { byteOrder, roster } from '../people/roster.ts';
import { companyFromRow } from '../people/roster-row.ts';
import { getUsers } from '../people/users.ts';
import { Audience, type AudienceItem } from './entities.ts';
import { checkRule, type Rule, referencesOf } from './rule.ts';
import { type Candidate, type Resolved, selectPeople, selectsPerson } from './select.ts';

/**
 * Audiences (docs/audiences.md): named rules over what the company controls, kept as items. Every
 * evaluation reads the roster (shared/people/roster.ts: one Query of its pending changes and one S3
 * object, whatever the company's size) and the teams the rule names, and selects in memory: CPU
 * linear in the company, no read that grows with it (docs/data-model.md, Audiences).
 */

/** An audience as answers show it. */
export const toAudience = (a: AudienceItem) => ({
  id: a.id,
  name: a.name,
  rule: a.rule,
  count: a.count,
  countedAt: a.countedAt,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

/** A rule's shape and bounds, as a 400 naming where each problem is (the route validates this already). */
export function requireRule(value: unknown): Rule {
  const { rule, problems } = checkRule(value);
  if (!rule) throw invalid(problems.map((p) => `${['rule', ...p.path].join('.')}: ${p.message}`));
  return rule;
}

interface Company {
  people: (Candidate & { name: string; joinedAt: string })[];
  resolved: Resolved;
}

/**
 * The company as rules see it, and what the rule's teams and groups are now. Rows of the roster written
 * before audiences (no company values) are read from their profiles, until the roster's next refresh
 * rewrites them. With `check`, references to nobody (an unknown team, group, manager or person) are a 400.
 */
async function companyFor(rule: Rule, check: boolean): Promise<Company> {
  const refs = referencesOf(rule);
  const groupNames = [...refs.scimGroups];
  const [rows, claims] = await Promise.all([
    roster(),
    TeamName.getMany(
      groupNames.map((nameLower) => ({ nameLower })),
      { consistent: true },
    ),
  ]);
  // getMany answers in the order asked (undefined where no team has the name).
  const groups = new Map<string, string>();
  claims.forEach((c, i) => {
    if (c) groups.set(groupNames[i]!, c.teamId);
  });
  const teamIds = [...new Set([...refs.teamIds, ...groups.values()])];
  const teams = await Team.getMany(
    teamIds.map((id) => ({ id })),
    { consistent: true },
  );
  const openTeams = new Set(teams.flatMap((t) => (t && !t.deletingAt ? [t.id] : [])));
  const older = rows.filter((r) => !Array.isArray(r.company)).map((r) => r.id);
  const profiles: Map<string, UserItem> = older.length ? await getUsers(older) : new Map();
  const people = rows.map((r) => {
    const profile = profiles.get(r.id);
    const company = Array.isArray(r.company)
      ? companyFromRow(r.company)
      : companyValuesOf(profile ?? { managerId: r.managerId });
    return { id: r.id, name: r.name, role: r.role, status: r.status, company, joinedAt: r.joinedAt };
  });
  if (check) {
    const known = new Set(people.map((p) => p.id));
    const problems: string[] = [];
    const unknown = (what: string, ids: Iterable<string>, found: (id: string) => boolean) => {
      const missing = [...ids].filter((id) => !found(id));
      if (missing.length) problems.push(`rule: no such ${what}: ${missing.slice(0, 5).join(', ')}`);
    };
    unknown('team', refs.teamIds, (id) => openTeams.has(id));
    unknown('SCIM group', refs.scimGroups, (name) => groups.has(name) && openTeams.has(groups.get(name)!));
    unknown('manager', refs.managerIds, (id) => known.has(id));
    unknown('person', refs.userIds, (id) => known.has(id));
    if (problems.length) throw invalid(problems);
  }
  return { people, resolved: { openTeams, groups } };
}

/** The people a rule selects, in the directory's name order (folded name, then id). */
async function selected(rule: Rule, check: boolean): Promise<{ key: string; id: string }[]> {
  const { people, resolved } = await companyFor(rule, check);
  const ids = selectPeople(rule, people, resolved);
  const keyed = people.filter((p) => ids.has(p.id)).map((p) => ({ key: `${nameKey(p.name)}#${p.id}`, id: p.id }));
  keyed.sort((a, b) => byteOrder(a.key, b.key));
  return keyed;
}

/**
 * Who a rule selects now, with when each joined the company, in id order: what targeted content
 * freezes at publish (shared/feed/audience.ts). `check`: references to nobody are a 400.
 */
export async function ruleMembers(
  rule: Rule,
  opts: { check?: boolean } = {},
): Promise<{ id: string; joinedAt: string }[]> {
  const { people, resolved } = await companyFor(rule, opts.check ?? false);
  const ids = selectPeople(rule, people, resolved);
  return people
    .filter((p) => ids.has(p.id))
    .map((p) => ({ id: p.id, joinedAt: p.joinedAt }))
    .sort((a, b) => byteOrder(a.id, b.id));
}

/**
 * Which of these rules select one person as a change just made them (a dynamic audience's joiner,
 * shared/feed/audience.ts): one read of the company for all the rules, then O(nodes × their manager
 * chain) each, never a pass over the company per rule. Answers the indexes of the rules that select them.
 */
export async function rulesSelecting(rules: Rule[], fresh: Candidate): Promise<number[]> {
  if (!rules.length) return [];
  const { people, resolved } = await companyFor({ any: rules }, false);
  const managerOf = new Map(people.map((p) => [p.id, p.company.managerId]));
  managerOf.set(fresh.id, fresh.company.managerId);
  return rules.flatMap((r, i) => (selectsPerson(r, fresh, managerOf, resolved) ? [i] : []));
}

/** The people below a manager (the company's values, every level), now. */
export async function peopleBelow(managerId: string): Promise<Set<string>> {
  const rule: Rule = { managerId, chain: true };
  const { people, resolved } = await companyFor(rule, false);
  return selectPeople(rule, people, resolved);
}

/**
 * The people a rule selects now with the company's values of each (department, team, manager,
 * location), or, with `null`, everybody who is not deactivated: for an area that freezes an audience
 * (a survey's run, docs/surveys.md). With `check`, references to nobody are a 400. One roster read.
 */
export async function selectedWithValues(
  rule: Rule | null,
  check = false,
): Promise<{ id: string; company: Candidate['company'] }[]> {
  const { people, resolved } = await companyFor(rule ?? { userIds: [] }, check && rule !== null);
  const ids = rule
    ? selectPeople(rule, people, resolved)
    : new Set(people.filter((p) => p.status !== 'deactivated').map((p) => p.id));
  return people.filter((p) => ids.has(p.id)).map((p) => ({ id: p.id, company: p.company }));
}

export interface PeoplePage {
  count: number;
  users: UserItem[];
  nextCursor: string | null;
}

/** A page of the selected people after `cursor` (sealed, bound to `scope`), as profiles. */
async function pageOf(
  all: { key: string; id: string }[],
  scope: string,
  p: { limit: number; cursor?: string },
): Promise<PeoplePage> {
  const after = decodeCursor(scope, p.cursor)?.after;
  const rest = typeof after === 'string' ? all.filter((x) => byteOrder(x.key, after) > 0) : all;
  const chosen = rest.slice(0, p.limit);
  const profiles = await getUsers(chosen.map((x) => x.id));
  const users = chosen.flatMap((x) => {
    const u = profiles.get(x.id);
    return u ? [u] : [];
  });
  const last = chosen.at(-1);
  return {
    count: all.length,
    users,
    nextCursor: rest.length > p.limit && last ? encodeCursor(scope, { after: last.key }) : null,
  };
}

const PREVIEW_PAGE = 20;

/** `POST /admin/audiences/preview`: how many people a rule selects now, and the first page of them. */
export async function previewAudience(input: { rule: unknown }): Promise<PeoplePage> {
  const rule = requireRule(input.rule);
  return pageOf(await selected(rule, true), 'audience-preview', { limit: PREVIEW_PAGE });
}

/** `GET /admin/audiences/{id}/people`: a page of the people the audience selects now. */
export async function audiencePeople(id: string, p: { limit: number; cursor?: string }): Promise<PeoplePage> {
  const audience = await getAudience(id);
  return pageOf(await selected(audience.rule, false), `audience-people|${id}`, p);
}

export async function getAudience(id: string): Promise<AudienceItem> {
  const found = await Audience.get({ id }, { consistent: true });
  if (!found) throw notFound('No such audience.');
  return found;
}

export async function createAudience(actorId: string, input: { name: string; rule: unknown }): Promise<AudienceItem> {
  const rule = requireRule(input.rule);
  const people = await selected(rule, true);
  const now = new Date().toISOString();
  const name = input.name.trim();
  const item = Audience.item({
    id: newId(),
    name,
    nameLower: name.toLowerCase(),
    rule,
    count: people.length,
    countedAt: now,
    createdAt: now,
    updatedAt: now,
    rev: 0,
    createdBy: actorId,
    actorId,
  });
  await write(Audience.create(item));
  return item;
}

/** Renames and/or sets the rule; the count is recomputed. Conditioned on the revision read. */
export async function updateAudience(
  actorId: string,
  id: string,
  input: { name?: string; rule?: unknown },
): Promise<AudienceItem> {
  const rule = input.rule === undefined ? undefined : requireRule(input.rule);
  return retryOnConflict(
    async () => {
      const before = await getAudience(id);
      const nextRule = rule ?? before.rule;
      const people = await selected(nextRule, rule !== undefined);
      const name = input.name?.trim() ?? before.name;
      const now = new Date().toISOString();
      const after = Audience.item({
        ...before,
        name,
        nameLower: name.toLowerCase(),
        rule: nextRule,
        count: people.length,
        countedAt: now,
        updatedAt: now,
        rev: before.rev + 1,
        actorId,
      });
      await write(Audience.change(before, after, presentAtRevision(before.rev)), { returnValues: 'NONE' });
      return after;
    },
    { exhausted: () => conflict('The audience changed while this request ran. Try again.') },
  );
}

export async function deleteAudience(id: string): Promise<void> {
  try {
    await write(Audience.remove({ id }, { ConditionExpression: 'attribute_exists(pk)' }), { returnValues: 'NONE' });
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('No such audience.');
    throw err;
  }
}

/** Audiences by name, a page at a time. */
export async function listAudiences(p: { limit: number; cursor?: string }) {
  const { items, nextCursor } = await Audience.query(
    { index: 'byName', key: {} },
    page({ limit: p.limit, cursor: p.cursor }),
  );
  return { items: items.map(toAudience), nextCursor };
}
