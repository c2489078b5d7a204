import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { putMany, write } from '../../shared/db/table.ts';
import { Team, type TeamItem, TeamMember, User } from '../../shared/people/entities.ts';
import { teamMembershipsMigration } from '../../shared/people/migrations.ts';
import { clearDeletedTeam, resumeTeamDeletions, teamDeletionFanOut } from '../../shared/people/team-deletion.ts';
import { createTeam, deleteTeam } from '../../shared/people/teams.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { admin, api, uniq } from '../support/api.ts';
import { directory, expectStatus, newTeam, person, teamById } from './helpers.ts';

/**
 * Team deletion (issue 27): the request marks the team in one transaction whatever its size, every
 * read shows its people without a team at once, and the background clearing (team-deletion.ts)
 * unassigns them page by page, resumably.
 */

/**
 * `n` deactivated people on the team, written in bulk (as the bench loads people) with their
 * membership items and the team's `memberships` moved as their creation would have: deactivated, so
 * the shared directory projection and facets of the test run stay untouched.
 */
async function bulkMembers(teamId: string, n: number): Promise<string[]> {
  const now = new Date().toISOString();
  const users = Array.from({ length: n }, (_, i) =>
    User.item({
      ...blankProfile(),
      id: randomUUID(),
      name: `Bulk ${i} ${uniq()}`,
      email: `bulk-${uniq()}-${i}@example.com`,
      role: 'member',
      status: 'deactivated',
      teamId,
      joinedAt: now,
    }),
  );
  await putMany(users.flatMap((u) => [{ ...u, rev: 0 }, TeamMember.item({ teamId, userId: u.id })]));
  await write(Team.add({ id: teamId }, { memberships: n, membershipMoves: n }));
  return users.map((u) => u.id);
}

const stored = async (ids: string[]) =>
  (
    await User.getMany(
      ids.map((id) => ({ id })),
      { consistent: true },
    )
  ).filter((u) => u !== undefined);
const namingTeam = async (ids: string[], teamId: string) =>
  (await stored(ids)).filter((u) => u.teamId === teamId).map((u) => u.id);
/** The team as stored (a marked one too). */
const storedTeam = (id: string) => Team.get({ id }, { consistent: true });
const memberships = async (teamId: string) => TeamMember.queryAll({ key: { teamId }, consistent: true });

async function until(what: string, check: () => Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

afterEach(() => vi.restoreAllMocks());

describe('team deletion: O(1) request, background clearing', () => {
  it('a team of 300 is deleted with one transaction of two items; reads show null before the clearing; the consumer completes it', async () => {
    const team = await newTeam();
    const [active, pending] = [await person({ teamId: team.id }), await person({ teamId: team.id }, { signIn: false })];
    const bulk = await bulkMembers(team.id, 300);
    const a = await admin();
    const caller = (await api('GET', '/users/me/profile', { token: a.token })).body.id as string;

    const sent: string[] = [];
    const client = db();
    const send = client.send.bind(client);
    vi.spyOn(client, 'send').mockImplementation(((command: any) => {
      const name = command.constructor.name as string;
      sent.push(name === 'TransactWriteCommand' ? `${name}(${command.input.TransactItems.length})` : name);
      return send(command);
    }) as never);
    const removed = await deleteTeam(caller, team.id);
    vi.restoreAllMocks();

    // Every status counted (active, pending and the 300 deactivated), from the team's counter.
    expect(removed).toEqual({ id: team.id, unassigned: 302 });
    // One consistent read of the team and one transaction (mark + name claim): nothing per member.
    expect(sent).toEqual(['GetCommand', 'TransactWriteCommand(2)']);

    // Right after the request most people still name the team in the table (the clearing runs one
    // transaction each in the background), yet every read shows them without a team.
    const stale = await namingTeam([active.id, pending.id, ...bulk], team.id);
    expect(stale.length).toBeGreaterThan(0);
    for (const id of [active.id, pending.id, ...stale.slice(0, 3)]) {
      expect(expectStatus(await api('GET', `/people/${id}`, { token: a.token }), 200, 'profile').team).toBeNull();
    }
    expect((await api('GET', '/users/me/profile', { token: active.token })).body.team).toBeNull();
    expect(await directory(active.token, { team: team.id })).toEqual([]);
    expect(await directory(active.token, { team: team.id, q: 'Person' })).toEqual([]);
    const listed = (await directory(active.token, { sort: 'recent', limit: 50 })).find((e) => e.id === active.id);
    expect(listed?.team ?? null).toBeNull();
    expect(await teamById(team.id)).toBeUndefined();
    // Joining is refused as for a missing team; the name is free at once.
    expect((await api('PATCH', '/users/me/profile', { token: active.token, body: { teamId: team.id } })).status).toBe(
      400,
    );
    expectStatus(await api('POST', '/teams', { token: a.token, body: { name: team.name } }), 201, 'same name again');
    expect((await api('DELETE', `/teams/${team.id}`, { token: a.token })).status).toBe(404);

    // The runtime's team-deletion consumer (reached by the mark's stream record) completes it.
    await until('the clearing', async () => !(await storedTeam(team.id)));
    expect(await namingTeam([active.id, pending.id, ...bulk], team.id)).toEqual([]);
    expect(await memberships(team.id)).toEqual([]);
    expect((await api('GET', `/people/${active.id}`, { token: a.token })).body.team).toBeNull();
  }, 120_000);

  it('a clearing that stops partway is completed by a later run (the sweep), nobody done twice', async () => {
    const caller = (await api('GET', '/users/me/profile', { token: (await admin()).token })).body.id as string;
    const team = await createTeam(caller, { name: `Stopped ${uniq()}` });
    const bulk = await bulkMembers(team.id, 23);
    // A person who left the team without their membership item going (it must go all the same).
    const [orphan] = await bulkMembers(team.id, 1);
    await putMany([{ ...(await User.get({ id: orphan }, { consistent: true }))!, teamId: null }]);

    // Marked as an earlier release marked it (its in-request clearing interrupted): the item removed,
    // then written again with its mark, so the stream holds a REMOVE and an INSERT and no MODIFY that
    // adds the mark: the runtime's consumer (in a lane of its own, at once) leaves this deletion to the
    // runs of this test.
    const marked: TeamItem = {
      ...(await storedTeam(team.id))!,
      deletingAt: new Date().toISOString(),
    };
    await write(Team.remove({ id: team.id }));
    await putMany([marked]);

    // A run that stops after two pages of 5.
    let pages = 0;
    const done = await clearDeletedTeam(team.id, { pageSize: 5, stop: () => pages++ >= 2 });
    expect(done).toBe(false);
    const left = await namingTeam(bulk, team.id);
    expect(left.length).toBeGreaterThanOrEqual(23 - 10);
    expect(left.length).toBeLessThan(23);
    const progress = (await storedTeam(team.id))!;
    expect(progress.cleared).toBe(23 - left.length);
    expect(progress.clearingAt).toBeTruthy();
    // What is left to do is recorded by the membership items still there (the orphan's, unless reached).
    const remaining = (await memberships(team.id)).length;
    expect(remaining).toBeGreaterThanOrEqual(left.length);
    expect(remaining).toBeLessThanOrEqual(left.length + 1);

    // Not stale yet: the sweep leaves it alone.
    expect(await resumeTeamDeletions({ now: new Date() })).toBe(0);
    expect((await namingTeam(bulk, team.id)).length).toBe(left.length);
    // Stale: two sweeps and a redelivered stream record at once complete it, each person once.
    const later = new Date(Date.now() + 10 * 60_000);
    const record = {
      eventName: 'MODIFY',
      dynamodb: {
        NewImage: { entity: { S: 'Team' }, id: { S: team.id }, deletingAt: { S: marked.deletingAt } },
        OldImage: { entity: { S: 'Team' }, id: { S: team.id } },
      },
    } as never;
    const [r1, r2] = await Promise.all([
      resumeTeamDeletions({ now: later }),
      resumeTeamDeletions({ now: later }),
      teamDeletionFanOut([record]),
    ]);
    expect(r1 + r2).toBeGreaterThanOrEqual(1); // this one (others of the run may be taken over too)
    expect(await storedTeam(team.id)).toBeUndefined();
    expect(await namingTeam(bulk, team.id)).toEqual([]);
    expect(await memberships(team.id)).toEqual([]);
    for (const u of await stored(bulk)) expect(u.rev).toBe(1); // unassigned exactly once
  }, 60_000);

  it('counters stay exact: memberships moves with every membership change; migration 0007 counts older teams', async () => {
    const team = await newTeam();
    const [p1, p2] = [await person({ teamId: team.id }), await person({ teamId: team.id })];
    const gone = await person({ teamId: team.id });
    const a = await admin();
    expectStatus(
      await api('PATCH', `/admin/members/${gone.id}/status`, { token: a.token, body: { status: 'deactivated' } }),
      200,
      'deactivate',
    );
    const other = await newTeam();
    expectStatus(await api('PATCH', '/users/me/profile', { token: p2.token, body: { teamId: other.id } }), 200, 'move');
    let t = (await storedTeam(team.id))!;
    expect(t).toMatchObject({ memberCount: 1, memberships: 2, membershipsCounted: true });
    expect((await storedTeam(other.id))?.memberships).toBe(1);

    // A team as an earlier release stored it: no counter; the code's moves since then are partial.
    await write(
      Team.update(
        { id: team.id },
        {
          UpdateExpression: 'REMOVE memberships, membershipsCounted, membershipMoves',
        },
      ),
    );
    expectStatus(await api('PATCH', '/users/me/profile', { token: p1.token, body: { teamId: null } }), 200, 'leave');
    t = (await storedTeam(team.id))!;
    expect(t.memberships).toBe(-1);
    const writes = await teamMembershipsMigration.migrate(t);
    expect(writes).toHaveLength(1);
    const { transact } = await import('../../shared/db/table.ts');
    await transact(writes);
    t = (await storedTeam(team.id))!;
    expect(t).toMatchObject({ memberships: 1, membershipsCounted: true }); // the deactivated person
    expect(await teamMembershipsMigration.migrate(t)).toEqual([]);
    expectStatus(await api('DELETE', `/teams/${team.id}`, { token: a.token }), 200, 'delete');
  }, 60_000);
});
