import { actorOf, type ChangeMapper, changed, changeType, type DeclaredChange } from '../live/change-events.ts';
import * as z from '../util/zod.ts';
import { FAVOURITE_FIELDS, LINK_FIELDS, WORK_AND_INTEREST_FIELDS } from './profile-fields.ts';

const person = z.object({ userId: z.string() });

export const memberCreated = changeType('member.created', 'everyone', 'A member account was created.', person);
export const memberUpdated = changeType(
  'member.updated',
  'everyone',
  "A member's status, role or password changed.",
  person,
);
export const profileUpdated = changeType(
  'profile.updated',
  'everyone',
  "A person's profile changed (re-read it).",
  person,
);
export const profileAvatarUpdated = changeType(
  'profile.avatar.updated',
  'everyone',
  "A person's avatar changed; it carries the new image (apply it directly).",
  z.object({
    userId: z.string(),
    image: z.described(z.nullable(z.string()), "The new avatar's path, as the profile's `image`; null when removed."),
  }),
);
export const teamUpdated = changeType(
  'team.updated',
  'everyone',
  'A team was created, renamed, recoloured or deleted.',
  z.object({ teamId: z.described(z.nullable(z.string()), 'Null after a delete: re-read the list.') }),
);

/** The people area's change types (collected by `shared/registry/change-types.ts`). */
export const peopleChangeTypes = [memberCreated, memberUpdated, profileUpdated, profileAvatarUpdated, teamUpdated];

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
  ...WORK_AND_INTEREST_FIELDS,
  ...LINK_FIELDS,
  ...FAVOURITE_FIELDS,
  'joinedOn',
  'dateOfBirth',
  'isFeatured',
  'featuredNote',
];

export const userChanges: ChangeMapper = (change) => {
  const userId = (change.newImage?.id ?? change.oldImage?.id) as string | undefined;
  if (!userId) return [];
  if (change.eventName === 'INSERT') return [memberCreated.event(actorOf(change), { userId })];
  if (change.eventName !== 'MODIFY') return [];
  const events: DeclaredChange[] = [];
  if (changed(change, 'status', 'role')) events.push(memberUpdated.event(actorOf(change), { userId }));
  if (changed(change, 'image'))
    events.push(profileAvatarUpdated.event(actorOf(change), { userId, image: change.newImage?.image ?? null }));
  if (changed(change, ...PROFILE_FIELDS)) events.push(profileUpdated.event(actorOf(change), { userId }));
  return events;
};

export const credentialsChanges: ChangeMapper = (change) => {
  if (change.eventName !== 'MODIFY' || !changed(change, 'passwordHash')) return [];
  const userId = String(change.newImage?.pk ?? '').replace(/^USER#/, '');
  return userId ? [memberUpdated.event(actorOf(change), { userId })] : [];
};

export const teamChanges: ChangeMapper = (change) => {
  if (change.eventName === 'REMOVE')
    return change.oldImage?.deletingAt ? [] : [teamUpdated.event(actorOf(change), { teamId: null })];
  const teamId = change.newImage?.id as string | undefined;
  if (!teamId) return [];
  if (change.newImage?.deletingAt)
    return change.oldImage?.deletingAt ? [] : [teamUpdated.event(actorOf(change), { teamId: null })];
  if (change.eventName === 'INSERT' || changed(change, 'name', 'color'))
    return [teamUpdated.event(actorOf(change), { teamId })];
  return [];
};
