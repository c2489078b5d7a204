import { PRESENT } from '../db/entity.ts';
import { newId } from '../db/ids.ts';
import { teamKey, teamMembersPrefix, teamsIndex } from '../db/keys.ts';
import {
  failedConditions,
  getItem,
  isConditionFailure,
  queryAll,
  retryOnConflict,
  type TransactItem,
  transact,
  write,
} from '../db/table.ts';
import { conflict, DomainError, notFound } from '../errors.ts';
import { changePerson } from './change-person.ts';
import { type StoredTeam, Team, TeamMember, type TeamMemberItem, TeamName } from './entities.ts';
import type { TeamItem } from './profile.ts';

/**
 * Teams: names unique case-insensitively (a name claim item written in the
 * same transaction as the team), default colour slate, `memberCount` = listed people on the team,
 * moved by every change of a person (derived-from-person.ts).
 */
export type TeamColor = TeamItem['color'];

const nameTaken = () => conflict('A team with this name already exists.');
const noSuchTeam = () => notFound('No such team.');

export const toTeam = (t: TeamItem) => ({ id: t.id, name: t.name, color: t.color, memberCount: t.memberCount ?? 0 });

/** Every team by name (one Query; the list is small and unpaged by spec). */
export async function listTeams(): Promise<TeamItem[]> {
  const teams = await queryAll<StoredTeam>({ index: teamsIndex.index, pk: teamsIndex.pk });
  return teams.filter((t) => !t.deletingAt);
}

const nameAttributes = (name: string) => ({ name, nameLower: name.toLowerCase() });

const claim = (nameLower: string, teamId: string, actorId: string): TransactItem =>
  TeamName.create({ nameLower, teamId, actorId });

export async function createTeam(actorId: string, input: { name: string; color?: TeamColor }): Promise<TeamItem> {
  const id = newId();
  const name = input.name.trim();
  const team = Team.item({
    id,
    ...nameAttributes(name),
    color: input.color ?? 'slate',
    memberCount: 0,
    createdAt: new Date().toISOString(),
    actorId,
  });
  try {
    await transact([claim(team.nameLower, id, actorId), Team.create(team)]);
  } catch (err) {
    if (isConditionFailure(err)) throw nameTaken();
    throw err;
  }
  return team;
}

async function openTeam(teamId: string): Promise<StoredTeam> {
  const team = await getItem<StoredTeam>(teamKey(teamId), true);
  if (!team || team.deletingAt) throw noSuchTeam();
  return team;
}

/** Renames and/or recolours; a new name moves the claim (409 when another team holds it). */
export async function updateTeam(
  actorId: string,
  teamId: string,
  input: { name?: string; color?: TeamColor },
): Promise<TeamItem> {
  // The team changed (or went) meanwhile: read it again and decide again.
  return retryOnConflict(
    async () => {
      const team = await openTeam(teamId);
      const name = input.name?.trim() ?? team.name;
      const color = input.color ?? team.color;
      if (name === team.name && color === team.color) return team;
      const next = Team.item({ ...team, ...nameAttributes(name), color, actorId });
      const items: TransactItem[] = [
        Team.update([teamId], {
          UpdateExpression: 'SET #n = :n, nameLower = :l, #sk = :sk, color = :c, actorId = :a',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletingAt) AND nameLower = :old',
          ExpressionAttributeNames: { '#n': 'name', '#sk': `${teamsIndex.index}sk` },
          ExpressionAttributeValues: {
            ':n': name,
            ':l': next.nameLower,
            ':sk': Team.indexAttributes(next)[`${teamsIndex.index}sk`],
            ':c': color,
            ':a': actorId,
            ':old': team.nameLower,
          },
        }),
      ];
      if (next.nameLower !== team.nameLower) {
        items.push(claim(next.nameLower, teamId, actorId), TeamName.remove([team.nameLower]));
      }
      try {
        await transact(items);
      } catch (err) {
        if (isConditionFailure(err) && failedConditions(err).includes(1)) throw nameTaken();
        throw err;
      }
      return next;
    },
    { exhausted: () => conflict('The team changed while this request ran. Try again.') },
  );
}

/**
 * Deletes a team and leaves its people unassigned. The team is first marked so nobody can
 * join it; each member (found through the team's membership items, every status) is then unassigned
 * in their own small transaction; finally the team and its name claim go. A repeated call finishes an
 * interrupted deletion. Answers how many people this call unassigned.
 */
export async function deleteTeam(actorId: string, teamId: string): Promise<{ id: string; unassigned: number }> {
  const team = await getItem<StoredTeam>(teamKey(teamId), true);
  if (!team) throw noSuchTeam();
  if (!team.deletingAt) {
    await write(
      Team.update([teamId], {
        UpdateExpression: 'SET deletingAt = :now, actorId = :a',
        ...PRESENT,
        ExpressionAttributeValues: { ':now': new Date().toISOString(), ':a': actorId },
      }),
    ).catch((err) => Promise.reject(isConditionFailure(err) ? noSuchTeam() : err));
  }
  const members = await queryAll<TeamMemberItem>(teamMembersPrefix(teamId));
  let unassigned = 0;
  const unassign = async (userId: string) => {
    let cleared = false;
    await changePerson(
      userId,
      (u) => {
        cleared = u.teamId === teamId;
        return cleared ? { ...u, teamId: null } : u;
      },
      { actorId, teamGone: teamId },
    ).catch((err) => (err instanceof DomainError && err.kind === 'not-found' ? undefined : Promise.reject(err)));
    if (cleared) unassigned++;
  };
  for (let i = 0; i < members.length; i += 8) await Promise.all(members.slice(i, i + 8).map((m) => unassign(m.userId)));
  // Membership items of people who no longer name the team (or no longer exist) go as well.
  for (const m of await queryAll<TeamMemberItem>(teamMembersPrefix(teamId)))
    await write(TeamMember.remove([teamId, m.userId]));
  try {
    await transact([Team.remove([teamId], PRESENT), TeamName.remove([team.nameLower])]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // another call finished the deletion
  }
  return { id: teamId, unassigned };
}
