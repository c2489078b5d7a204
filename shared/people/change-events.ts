import {
  actorOf,
  type ChangeEventDraft,
  type ChangeMapper,
  changed,
  everyone,
  type ItemChange,
} from '../live/change-events.ts';
import { FAVOURITE_FIELDS, LINK_FIELDS } from './profile-fields.ts';

/**
 * The people area's live-update events, from the change feed's item images alone:
 * - User: member.created on a new account; member.updated on a status or role change;
 *   profile.avatar.updated (with the new image) on an image change; profile.updated on any other
 *   profile field (featured included). Counters (posts, reports), presence and index attributes are
 *   not profile changes.
 * - Credentials: member.updated when a password is set or changed (not at creation).
 * - Team: team.updated on create, rename or recolour; `teamId: null` after a delete: when the team is
 *   marked deleted (its people read as unassigned from then on), or when a team that was never marked
 *   is removed. The removal of a marked team, after its people were cleared, says nothing new.
 */
const PROFILE_FIELDS = [
  'name',
  'email',
  'title',
  'location',
  'bio',
  'currentWork',
  'department',
  'teamId',
  'managerId',
  'skills',
  'learningInterests',
  'hobbies',
  'interests',
  'projects',
  ...LINK_FIELDS,
  ...FAVOURITE_FIELDS,
  'joinedOn',
  'dateOfBirth',
  'isFeatured',
  'featuredNote',
];

const event = (change: ItemChange, type: string, payload: Record<string, unknown>): ChangeEventDraft => ({
  type,
  actorId: actorOf(change),
  payload,
  audience: everyone,
});

export const userChanges: ChangeMapper = (change) => {
  const userId = (change.newImage?.id ?? change.oldImage?.id) as string | undefined;
  if (!userId) return [];
  if (change.eventName === 'INSERT') return [event(change, 'member.created', { userId })];
  if (change.eventName !== 'MODIFY') return [];
  const events: ChangeEventDraft[] = [];
  if (changed(change, 'status', 'role')) events.push(event(change, 'member.updated', { userId }));
  if (changed(change, 'image'))
    events.push(event(change, 'profile.avatar.updated', { userId, image: change.newImage?.image ?? null }));
  if (changed(change, ...PROFILE_FIELDS)) events.push(event(change, 'profile.updated', { userId }));
  return events;
};

export const credentialsChanges: ChangeMapper = (change) => {
  if (change.eventName !== 'MODIFY' || !changed(change, 'passwordHash')) return [];
  const userId = String(change.newImage?.pk ?? '').replace(/^USER#/, '');
  return userId ? [event(change, 'member.updated', { userId })] : [];
};

export const teamChanges: ChangeMapper = (change) => {
  if (change.eventName === 'REMOVE')
    return change.oldImage?.deletingAt ? [] : [event(change, 'team.updated', { teamId: null })];
  const teamId = change.newImage?.id as string | undefined;
  if (!teamId) return [];
  if (change.newImage?.deletingAt)
    return change.oldImage?.deletingAt ? [] : [event(change, 'team.updated', { teamId: null })];
  if (change.eventName === 'INSERT' || changed(change, 'name', 'color'))
    return [event(change, 'team.updated', { teamId })];
  return [];
};
