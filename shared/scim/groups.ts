import { DomainError } from '../errors.ts';
import { Team, type TeamItem, TeamMember, TeamName } from '../people/entities.ts';
import { updateProfile } from '../people/profile-update.ts';
import { createTeam, deleteTeam, listTeams, updateTeam } from '../people/teams.ts';
import { getUser } from '../people/users.ts';
import { inPool } from '../util/in-pool.ts';
import { GROUP_SCHEMA } from './discovery.ts';
import { ScimError } from './errors.ts';
import type { Equalities } from './filter.ts';
import { operationsOf } from './user-attributes.ts';

/**
 * SCIM Groups as teams (docs/scim.md): a Group is a team, its members the people on it. A person is on
 * one team (the specification), so adding them to a second Group moves them there (the latest add wins)
 * and removing them from a Group they are no longer on changes nothing. Changes go through the people
 * area's functions, as a super admin's do, made by no person.
 */

export const GROUP_FILTERS = ['displayName'] as const;
const NAME_LIMIT = 60;

const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
const noSuchGroup = () => new ScimError(404, 'No such Group.');

/** The team's people (every status), as SCIM members. */
const membersOf = async (teamId: string) =>
  (await TeamMember.queryAll({ key: { teamId }, consistent: true })).map((m) => m.userId);

export async function toScimGroup(team: TeamItem, base: string, withMembers: boolean) {
  return {
    schemas: [GROUP_SCHEMA],
    id: team.id,
    displayName: team.name,
    ...(withMembers
      ? {
          members: (await membersOf(team.id)).map((value) => ({
            value,
            type: 'User',
            $ref: `${base}/Users/${value}`,
          })),
        }
      : {}),
    meta: { resourceType: 'Group', created: team.createdAt, location: `${base}/Groups/${team.id}` },
  };
}

async function openTeam(id: string): Promise<TeamItem> {
  const team = await Team.get({ id }, { consistent: true });
  if (!team || team.deletingAt) throw noSuchGroup();
  return team;
}
export const getGroup = openTeam;

function displayNameOf(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw invalidValue('displayName is required.');
  if (value.trim().length > NAME_LIMIT) throw invalidValue(`displayName must be at most ${NAME_LIMIT} characters.`);
  return value.trim();
}

/** Member ids of a `members` value (`[{ value }]`). */
function memberIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((m) => {
    const id = m && typeof m === 'object' ? (m as { value?: unknown }).value : undefined;
    if (typeof id !== 'string' || !id) throw invalidValue('members must be a list of { value: <User id> }.');
    return id;
  });
}

/** Puts a person on the team (moving them off another one); 400 for a member id nobody has. */
async function addMember(teamId: string, userId: string): Promise<void> {
  const user = await getUser(userId, true);
  if (!user) throw invalidValue(`members: no User ${userId}.`);
  if (user.teamId === teamId) return;
  await updateProfile(userId, { teamId }, { actorId: null, allowJoinedOn: false });
}

/** Takes a person off the team, if they are on it. */
async function removeMember(teamId: string, userId: string): Promise<void> {
  const user = await getUser(userId, true);
  if (!user || user.teamId !== teamId) return;
  await updateProfile(userId, { teamId: null }, { actorId: null, allowJoinedOn: false });
}

/**
 * People changed at once by one request: a provider sends a group's members in batches (Entra ID up to
 * a few hundred a PATCH), each a change of a person; their shared team counter is moved by ADD, so
 * concurrent changes only retry a transaction conflict.
 */
const AT_ONCE = 4;
const addAll = (teamId: string, ids: string[]) => inPool(ids, AT_ONCE, (id) => addMember(teamId, id));
const removeAll = (teamId: string, ids: string[]) => inPool(ids, AT_ONCE, (id) => removeMember(teamId, id));

/** Makes the team's people exactly these. */
async function setMembers(teamId: string, userIds: string[]): Promise<void> {
  const wanted = new Set(userIds);
  await removeAll(
    teamId,
    (await membersOf(teamId)).filter((id) => !wanted.has(id)),
  );
  await addAll(teamId, [...wanted]);
}

const nameTaken = (err: unknown) => {
  if (err instanceof DomainError && err.kind === 'conflict')
    throw new ScimError(409, 'A Group with this displayName exists.', 'uniqueness');
  throw err;
};

export async function createGroup(body: Record<string, unknown>): Promise<TeamItem> {
  const team = await createTeam(null, { name: displayNameOf(body.displayName) }).catch(nameTaken);
  await addAll(team.id, memberIds(body.members));
  return team;
}

export async function replaceGroup(id: string, body: Record<string, unknown>): Promise<TeamItem> {
  await openTeam(id);
  const team = await updateTeam(null, id, { name: displayNameOf(body.displayName) }).catch(nameTaken);
  await setMembers(id, memberIds(body.members));
  return team;
}

/**
 * What a PATCH may name and this service does not change: the read-only `id`, `meta` and `schemas`
 * (Okta renames a Group with `{ op: replace, value: { id, displayName } }`), and `externalId`, not kept.
 */
const IGNORED = new Set(['id', 'meta', 'schemas', 'externalid']);

/**
 * `PATCH` (RFC 7644 §3.5.2, `op` case-insensitive): `displayName` replaced; `members` added, removed
 * (by `members[value eq "…"]` or a `members` list) or replaced.
 */
export async function patchGroup(id: string, body: Record<string, unknown>): Promise<TeamItem> {
  let team = await openTeam(id);
  for (const operation of operationsOf(body)) {
    const op = String(operation.op ?? '').toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw invalidValue(`Unknown PATCH op ${JSON.stringify(operation.op)}: use add, replace or remove.`);
    const path = typeof operation.path === 'string' ? operation.path.trim() : '';
    const changes: [string, unknown][] = path
      ? [[path, operation.value]]
      : Object.entries((operation.value ?? {}) as Record<string, unknown>);
    for (const [rawPath, value] of changes) {
      const target = rawPath.toLowerCase();
      const filtered = /^members\[\s*value\s+eq\s+("(?:[^"\\]|\\.)*")\s*\]$/i.exec(rawPath);
      if (target === 'displayname') {
        if (op === 'remove') throw new ScimError(400, 'displayName is required.', 'mutability');
        team = await updateTeam(null, id, { name: displayNameOf(value) }).catch(nameTaken);
      } else if (filtered && op === 'remove') {
        await removeMember(id, JSON.parse(filtered[1]!) as string);
      } else if (target === 'members') {
        const ids = memberIds(value);
        if (op === 'add') await addAll(id, ids);
        else if (op === 'replace') await setMembers(id, ids);
        else if (value === undefined) await setMembers(id, []);
        else await removeAll(id, ids);
      } else if (!IGNORED.has(target)) {
        throw new ScimError(400, `Unsupported path ${JSON.stringify(rawPath)} for a Group.`, 'invalidPath');
      }
    }
  }
  return team;
}

/** `DELETE`: the team is deleted (its people left without a team), as a super admin's deletion does. */
export async function removeGroup(id: string): Promise<void> {
  await openTeam(id);
  await deleteTeam(null, id);
}

/** Groups by exact `displayName` (one read of its claim), else every team by name (a small, unpaged list). */
export async function listGroups(filter: Equalities, startIndex: number, count: number) {
  let teams: TeamItem[];
  const name = filter.get('displayName');
  if (name !== undefined) {
    const claim = await TeamName.get({ nameLower: name.trim().toLowerCase() }, { consistent: true });
    const team = claim ? await Team.get({ id: claim.teamId }, { consistent: true }) : undefined;
    teams = team && !team.deletingAt && team.name.toLowerCase() === name.trim().toLowerCase() ? [team] : [];
  } else {
    teams = await listTeams();
  }
  return { total: teams.length, page: teams.slice(startIndex - 1, startIndex - 1 + count) };
}

/** Whether a Group's answer carries its members: not when `excludedAttributes`, or an `attributes` list without it, leaves them out. */
export function withMembers(q: { attributes?: string; excludedAttributes?: string }): boolean {
  const names = (s: string | undefined) => (s ?? '').split(',').map((a) => a.trim().toLowerCase());
  if (names(q.excludedAttributes).includes('members')) return false;
  return q.attributes === undefined || names(q.attributes).includes('members');
}
