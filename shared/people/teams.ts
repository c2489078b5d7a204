import { newId } from '../db/ids.ts';
import { failedConditions, isConditionFailure, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { Team, type TeamColor, type TeamItem, TeamMember, TeamName } from './entities.ts';

/**
 * Teams: names unique case-insensitively (a name claim item written in the
 * same transaction as the team), default colour slate, `memberCount` = listed people on the team,
 * moved by every change of a person (derived-from-person.ts).
 */
export type { TeamColor };

const nameTaken = () => conflict('A team with this name already exists.');
const noSuchTeam = () => notFound('No such team.');

export const toTeam = (t: Pick<TeamItem, 'id' | 'name' | 'color' | 'memberCount'>) => ({
  id: t.id,
  name: t.name,
  color: t.color,
  memberCount: t.memberCount ?? 0,
});

/** Every team by name (one Query; the list is small and unpaged by spec); a deleted team (marked, its people still being cleared) is left out. */
export async function listTeams(): Promise<TeamItem[]> {
  const teams = await Team.queryAll({ index: 'byName', key: {} });
  return teams.filter((t) => !t.deletingAt);
}

const nameAttributes = (name: string) => ({ name, nameLower: name.toLowerCase() });

/** `actorId` null: the identity provider (SCIM), no person: stored without one. */
const actor = (actorId: string | null) => (actorId ? { actorId } : {});

const claim = (nameLower: string, teamId: string, actorId: string | null): TransactItem =>
  TeamName.create({ nameLower, teamId, ...actor(actorId) });

export async function createTeam(
  actorId: string | null,
  input: { name: string; color?: TeamColor },
): Promise<TeamItem> {
  const id = newId();
  const name = input.name.trim();
  const team = Team.item({
    id,
    ...nameAttributes(name),
    color: input.color ?? 'slate',
    memberCount: 0,
    memberships: 0,
    membershipMoves: 0,
    membershipsCounted: true,
    createdAt: new Date().toISOString(),
    ...actor(actorId),
  });
  try {
    await transact([claim(team.nameLower, id, actorId), Team.create(team)]);
  } catch (err) {
    if (isConditionFailure(err)) throw nameTaken();
    throw err;
  }
  return team;
}

async function openTeam(teamId: string): Promise<TeamItem> {
  const team = await Team.get({ id: teamId }, { consistent: true });
  if (!team || team.deletingAt) throw noSuchTeam();
  return team;
}

/** Renames and/or recolours; a new name moves the claim (409 when another team holds it). */
export async function updateTeam(
  actorId: string | null,
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
      const next = Team.item({ ...team, ...nameAttributes(name), color, actorId: actorId ?? undefined });
      const items: TransactItem[] = [
        // Name, colour and the list's sort key (gsi1sk) move in place.
        Team.change(team, next, {
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletingAt) AND nameLower = :old',
          ExpressionAttributeValues: { ':old': team.nameLower },
        }),
      ];
      if (next.nameLower !== team.nameLower) {
        items.push(claim(next.nameLower, teamId, actorId), TeamName.remove({ nameLower: team.nameLower }));
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
 * Deletes a team and leaves its people unassigned, in one transaction whatever the team's size: the
 * team is marked `deletingAt` (from then on every read shows its people without a team, and nobody
 * can join it) and its name claim goes, so the name is free at once. Unassigning the people, one small
 * transaction each, is background work (team-deletion.ts), started by the mark's stream record.
 * Answers how many people the deletion unassigns: the team's `memberships` counter, moved in the
 * transaction of every membership change, read here and held by the mark's condition. A team whose
 * counter predates it (migration 0007 not yet run on it) is counted once from its membership items.
 */
export async function deleteTeam(actorId: string | null, teamId: string): Promise<{ id: string; unassigned: number }> {
  return retryOnConflict(
    async () => {
      const team = await Team.get({ id: teamId }, { consistent: true });
      if (!team || team.deletingAt) throw noSuchTeam();
      const unassigned = team.membershipsCounted ? (team.memberships ?? 0) : await countMemberships(teamId);
      const held =
        team.membershipMoves === undefined
          ? { expression: 'attribute_not_exists(membershipMoves)', values: {} }
          : { expression: 'membershipMoves = :moves', values: { ':moves': team.membershipMoves } };
      await transact([
        Team.update(
          { id: teamId },
          {
            UpdateExpression: actorId ? 'SET deletingAt = :now, actorId = :a' : 'SET deletingAt = :now REMOVE actorId',
            ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deletingAt) AND ${held.expression}`,
            ExpressionAttributeValues: {
              ':now': new Date().toISOString(),
              ...(actorId ? { ':a': actorId } : {}),
              ...held.values,
            },
          },
        ),
        TeamName.remove(
          { nameLower: team.nameLower },
          {
            ConditionExpression: 'attribute_not_exists(pk) OR teamId = :id',
            ExpressionAttributeValues: { ':id': teamId },
          },
        ),
      ]);
      return { id: teamId, unassigned };
    },
    { exhausted: () => conflict('The team changed while this request ran. Try again.') },
  );
}

/** The team's membership items, counted (only for a team whose counter predates `memberships`). */
async function countMemberships(teamId: string): Promise<number> {
  return (await TeamMember.queryAll({ key: { teamId }, consistent: true })).length;
}
