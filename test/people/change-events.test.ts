import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../shared/live/change-events.ts';
import { credentialsChanges, teamChanges, userChanges } from '../../shared/people/change-events.ts';
import { changeMappers } from '../../shared/registry/change-mappers.ts';

const at = new Date('2025-01-01T00:00:00Z');
const modify = (oldImage: Record<string, unknown>, newImage: Record<string, unknown>): ItemChange => ({
  eventName: 'MODIFY',
  oldImage,
  newImage,
  at,
});
const user = {
  pk: 'USER#u1',
  sk: 'PROFILE',
  entity: 'User',
  id: 'u1',
  name: 'Ada',
  status: 'active',
  role: 'member',
  image: null,
  skills: ['Go'],
  postCount: 1,
  reportCount: 0,
  rev: 3,
};
const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('people change mappers', () => {
  it('are registered for User, Credentials and Team', () => {
    expect(changeMappers.User).toBe(userChanges);
    expect(changeMappers.Credentials).toBe(credentialsChanges);
    expect(changeMappers.Team).toBe(teamChanges);
  });

  it('User: member.created on insert, attributed to the creating admin, for everyone', () => {
    const [e] = userChanges({ eventName: 'INSERT', oldImage: undefined, newImage: { ...user, actorId: 'admin' }, at });
    expect(e).toEqual({
      type: 'member.created',
      actorId: 'admin',
      payload: { userId: 'u1' },
      audience: { kind: 'all' },
    });
  });

  it('User: status or role → member.updated; image → profile.avatar.updated with the image; other fields → profile.updated', () => {
    expect(types(userChanges(modify(user, { ...user, status: 'deactivated', actorId: 'a' })))).toEqual([
      'member.updated',
    ]);
    expect(types(userChanges(modify(user, { ...user, role: 'super_admin' })))).toEqual(['member.updated']);
    const avatar = userChanges(modify(user, { ...user, image: '/api/v1/files/avatars/u1_x.webp', actorId: 'u1' }));
    expect(avatar).toEqual([
      {
        type: 'profile.avatar.updated',
        actorId: 'u1',
        payload: { userId: 'u1', image: '/api/v1/files/avatars/u1_x.webp' },
        audience: { kind: 'all' },
      },
    ]);
    for (const field of [
      'name',
      'skills',
      'teamId',
      'managerId',
      'isFeatured',
      'featuredNote',
      'projects',
      'codeHosting',
      'drink',
      'joinedOn',
    ]) {
      expect(types(userChanges(modify(user, { ...user, [field]: 'changed' }))), field).toEqual(['profile.updated']);
    }
    expect(types(userChanges(modify(user, { ...user, name: 'Ada L', image: '/x' })))).toEqual([
      'profile.avatar.updated',
      'profile.updated',
    ]);
  });

  it('User: counters, revisions and index attributes are not profile changes; removals say nothing', () => {
    expect(
      userChanges(modify(user, { ...user, postCount: 2, gsi6sk: 2, reportCount: 4, rev: 4, actorId: 'x' })),
    ).toEqual([]);
    expect(userChanges({ eventName: 'REMOVE', oldImage: user, newImage: undefined, at })).toEqual([]);
  });

  it('Credentials: member.updated when the password changes, not when the account is created', () => {
    const creds = { pk: 'USER#u1', sk: 'CREDENTIALS', entity: 'Credentials', passwordHash: 'h1' };
    expect(credentialsChanges({ eventName: 'INSERT', oldImage: undefined, newImage: creds, at })).toEqual([]);
    expect(credentialsChanges(modify(creds, { ...creds, passwordHash: 'h2', actorId: 'admin' }))).toEqual([
      { type: 'member.updated', actorId: 'admin', payload: { userId: 'u1' }, audience: { kind: 'all' } },
    ]);
    expect(credentialsChanges(modify(creds, { ...creds, actorId: 'admin' }))).toEqual([]);
  });

  it('Team: created, renamed or recoloured → team.updated with its id; marked deleted → teamId null; counts alone → nothing', () => {
    const team = {
      pk: 'TEAM#t1',
      sk: 'TEAM',
      entity: 'Team',
      id: 't1',
      name: 'Core',
      color: 'blue',
      memberCount: 1,
      actorId: 'admin',
    };
    expect(teamChanges({ eventName: 'INSERT', oldImage: undefined, newImage: team, at })[0]).toMatchObject({
      type: 'team.updated',
      actorId: 'admin',
      payload: { teamId: 't1' },
    });
    expect(types(teamChanges(modify(team, { ...team, name: 'Platform' })))).toEqual(['team.updated']);
    expect(types(teamChanges(modify(team, { ...team, color: 'rose' })))).toEqual(['team.updated']);
    expect(teamChanges(modify(team, { ...team, memberCount: 2 }))).toEqual([]);
    // The delete is the mark (its people read as unassigned from then on); the clearing's progress and
    // the marked team's removal at its end say nothing more.
    const deleted = { type: 'team.updated', actorId: 'other', payload: { teamId: null }, audience: { kind: 'all' } };
    const marked = { ...team, deletingAt: 'now', actorId: 'other' };
    expect(teamChanges(modify(team, marked))).toEqual([deleted]);
    expect(teamChanges(modify(marked, { ...marked, cleared: 50, clearingAt: 'later' }))).toEqual([]);
    expect(teamChanges({ eventName: 'REMOVE', oldImage: marked, newImage: undefined, at })).toEqual([]);
    // A team removed without a mark (an earlier release's data): deleted then.
    expect(
      teamChanges({ eventName: 'REMOVE', oldImage: { ...team, actorId: 'other' }, newImage: undefined, at }),
    ).toEqual([deleted]);
  });
});
