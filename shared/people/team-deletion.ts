import type { DynamoDBRecord } from 'aws-lambda';
import { page } from '../db/paging.ts';
import { isConditionFailure, write } from '../db/table.ts';
import { DomainError } from '../errors.ts';
import { toItemChange } from '../live/change-feed.ts';
import { logger } from '../observability/logger.ts';
import { inPool } from '../util/in-pool.ts';
import { changePerson } from './change-person.ts';
import { Team, TeamMember } from './entities.ts';

/**
 * Unassigning a deleted team's people: O(members) transactions, so `DELETE /teams/{id}` only marks
 * the team (`deletingAt`, teams.ts) and this background work does the rest. Until it reaches a person,
 * every read treats the marked team as no team (profile.ts `teamsOf`, the directory's team filter) and
 * nobody can join it (the `teamExists` condition of every membership write).
 *
 * Page by page: the team's first membership items (`TEAM#<id>` / `MEMBER#…`, every status) are read,
 * and each person is unassigned in their own transaction, which removes their membership item with
 * their `teamId` (derived-from-person.ts; the team's counters are left alone, they go with it). A
 * membership item whose person no longer names the team is removed alone. So what is left to do is
 * exactly the membership items still there: that is the recorded progress, and a run that stops
 * anywhere (a timeout, a failed write, a crash between two people) is completed by the next one,
 * from the stream's redelivery or the sweep, without a cursor and without doing anything twice. Each
 * page also records `cleared` (people unassigned so far) and `clearingAt` (the sweep's staleness
 * clock) on the team. When no membership item is left, the team item goes (conditioned on its mark).
 */

/** People unassigned at once (each their own transaction of a few items). */
const CONCURRENCY = 8;
/** Membership items read per page. */
export const CLEARING_PAGE = 50;
/** A deletion whose clearing recorded no page for this long is taken over by the sweep. */
export const CLEARING_STALE_MS = 2 * 60 * 1000;

export interface ClearingOptions {
  pageSize?: number;
  /** Asked before each page: true stops the run (a Lambda near its deadline); the next run goes on. */
  stop?: () => boolean;
}

/**
 * Unassigns what is left of a deleted team's people, then removes the team. Answers whether the
 * deletion is complete (false when `stop` ended the run first). Throws when a write fails.
 */
export async function clearDeletedTeam(teamId: string, opts: ClearingOptions = {}): Promise<boolean> {
  const pageSize = opts.pageSize ?? CLEARING_PAGE;
  for (;;) {
    const team = await Team.get({ id: teamId }, { consistent: true });
    if (!team?.deletingAt) return true; // done already (or never deleted)
    if (opts.stop?.()) return false;
    const members = await TeamMember.query({ key: { teamId }, consistent: true }, page({ limit: pageSize }));
    if (members.items.length === 0) {
      // Nobody can join a marked team, so no membership item can appear after this read.
      await write(Team.remove({ id: teamId }, { ConditionExpression: 'attribute_exists(deletingAt)' })).catch((err) =>
        isConditionFailure(err) ? undefined : Promise.reject(err),
      );
      return true;
    }
    let cleared = 0;
    await inPool(members.items, CONCURRENCY, async (m) => {
      if (await unassign(teamId, m.userId, team.actorId)) cleared++;
    });
    await write(
      Team.update(
        { id: teamId },
        {
          UpdateExpression: 'SET clearingAt = :now ADD cleared :n',
          ConditionExpression: 'attribute_exists(deletingAt)',
          ExpressionAttributeValues: { ':now': new Date().toISOString(), ':n': cleared },
        },
      ),
    ).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err)));
  }
}

/** Unassigns one person from the deleted team; answers whether their `teamId` named it. */
async function unassign(teamId: string, userId: string, actorId: string | undefined): Promise<boolean> {
  let named = false;
  try {
    await changePerson(
      userId,
      (u) => {
        named = u.teamId === teamId;
        return named ? { ...u, teamId: null } : u;
      },
      { actorId: actorId ?? null, teamGone: teamId },
    );
  } catch (err) {
    if (!(err instanceof DomainError && err.kind === 'not-found')) throw err;
    named = false;
  }
  // Their membership item went with the change; one of a person who no longer names the team goes alone.
  if (!named) await write(TeamMember.remove({ teamId, userId }));
  return named;
}

/** The team-deletion consumer's filter: a team newly marked deleted (the clearing's own writes do not match). */
export const teamDeletionFilters: Record<string, unknown>[] = [
  {
    eventName: ['MODIFY'],
    dynamodb: {
      NewImage: { entity: { S: [Team.name] }, deletingAt: { S: [{ exists: true }] } },
      OldImage: { deletingAt: { S: [{ exists: false }] } },
    },
  },
];

/** The stream consumer: clears each team these records mark deleted. Throws (the stream retries) when a write fails. */
export async function teamDeletionFanOut(records: DynamoDBRecord[], opts: ClearingOptions = {}): Promise<void> {
  for (const r of records) {
    const change = toItemChange(r);
    const team = change.newImage;
    if (r.eventName !== 'MODIFY' || team?.entity !== Team.name || !team.deletingAt || change.oldImage?.deletingAt)
      continue;
    await clearDeletedTeam(team.id as string, opts);
  }
}

/**
 * The sweep: takes over every deletion whose clearing stopped (no page recorded for `staleMs`: the
 * stream gave up on its record, or a run ended at its deadline) and completes it. Deletions marked by
 * an earlier release, which cleared in the request, are completed the same way. One Query of the
 * teams list (O(teams)); a takeover is a conditional write on `clearingAt`, so two sweeps never race.
 */
export async function resumeTeamDeletions(
  opts: ClearingOptions & { staleMs?: number; now?: Date } = {},
): Promise<number> {
  const now = opts.now ?? new Date();
  const staleMs = opts.staleMs ?? CLEARING_STALE_MS;
  const deleting = await Team.queryAll({
    index: 'byName',
    key: {},
    filter: { FilterExpression: 'attribute_exists(deletingAt)' },
  });
  let resumed = 0;
  for (const team of deleting) {
    const last = team.clearingAt ?? team.deletingAt!;
    if (now.getTime() - Date.parse(last) < staleMs) continue;
    try {
      await write(
        Team.update(
          { id: team.id },
          {
            UpdateExpression: 'SET clearingAt = :now',
            ConditionExpression: team.clearingAt
              ? 'attribute_exists(deletingAt) AND clearingAt = :last'
              : 'attribute_exists(deletingAt) AND attribute_not_exists(clearingAt)',
            ExpressionAttributeValues: {
              ':now': now.toISOString(),
              ...(team.clearingAt ? { ':last': team.clearingAt } : {}),
            },
          },
        ),
      );
    } catch (err) {
      if (isConditionFailure(err)) continue; // taken over by another sweep, or finished meanwhile
      throw err;
    }
    try {
      if (await clearDeletedTeam(team.id, opts)) resumed++;
    } catch (err) {
      // Left for the next sweep (its progress is recorded); the other deletions go on.
      logger.error('team deletion: clearing interrupted', { teamId: team.id, error: (err as Error).message });
    }
  }
  return resumed;
}
