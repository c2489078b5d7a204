import { Team, type TeamColor, type TeamItem, type UserItem } from '../people/entities.ts';
import { getUsers } from '../people/users.ts';
import { presencesOf } from '../presence/view.ts';
import { shownLink } from '../util/links.ts';
import type * as z from '../util/zod.ts';
import { FAVOURITE_FIELDS, LINK_FIELDS, type Profile } from './schemas/common.ts';

export interface Viewer {
  userId: string;
  role: 'member' | 'super_admin';
}

/** A complete profile: title, bio, location, at least one skill, and an avatar. */
export const isComplete = (u: UserItem) =>
  Boolean(u.title && u.bio && u.location && (u.skills ?? []).length > 0 && u.image);

/**
 * The teams these people are on, read fresh (one batch read) so a rename shows on the next read. A
 * deleted team (marked, its people not all cleared yet) or a missing one is no team: `team: null`.
 */
async function teamsOf(users: UserItem[]): Promise<Map<string, { id: string; name: string; color: TeamColor }>> {
  const ids = [...new Set(users.map((u) => u.teamId).filter((x): x is string => !!x))];
  const teams = await Team.getMany(ids.map((id) => ({ id })));
  return new Map(
    teams
      .filter((t): t is TeamItem => !!t && !t.deletingAt)
      .map((t) => [t.id, { id: t.id, name: t.name, color: t.color }]),
  );
}

type Teams = Awaited<ReturnType<typeof teamsOf>>;
type Presences = Awaited<ReturnType<typeof presencesOf>>;

/**
 * A directory entry (DirectoryEntry), missing text as '' and missing lists as []. A full
 * profile shows all of it too, so the two cannot drift apart.
 */
function entryFields(u: UserItem, teams: Teams, presence: Presences) {
  return {
    id: u.id,
    name: u.name,
    image: u.image ?? null,
    title: u.title ?? '',
    location: u.location ?? '',
    bio: u.bio ?? '',
    currentWork: u.currentWork ?? '',
    skills: u.skills ?? [],
    team: (u.teamId && teams.get(u.teamId)) || null,
    joinedAt: u.joinedAt,
    status: u.status,
    ...presence.get(u.id)!,
    postCount: u.postCount ?? 0,
  };
}

/**
 * Full profiles for these people as `viewer` sees them. Manager and team are read fresh (batch reads)
 * so a rename shows everywhere on the next read.
 */
export async function toProfiles(users: UserItem[], viewer: Viewer): Promise<z.input<typeof Profile>[]> {
  const [managers, teams, presence] = await Promise.all([
    getUsers(users.map((u) => u.managerId).filter((x): x is string => !!x)),
    teamsOf(users),
    presencesOf(users.map((u) => u.id)),
  ]);
  return users.map((u) => {
    const manager = u.managerId ? managers.get(u.managerId) : undefined;
    const seesPrivate = viewer.userId === u.id || viewer.role === 'super_admin';
    const links = Object.fromEntries([
      ...LINK_FIELDS.map((k) => [k, shownLink(u[k])]),
      ...FAVOURITE_FIELDS.map((k) => [k, u[k] ?? '']),
    ]);
    return {
      ...entryFields(u, teams, presence),
      email: u.email,
      role: u.role,
      department: u.department ?? '',
      learningInterests: u.learningInterests ?? [],
      hobbies: u.hobbies ?? [],
      interests: u.interests ?? [],
      projects: u.projects ?? [],
      ...(links as Record<(typeof LINK_FIELDS)[number] | (typeof FAVOURITE_FIELDS)[number], string>),
      joinedOn: u.joinedOn ?? null,
      dateOfBirth: seesPrivate ? (u.dateOfBirth ?? null) : null,
      manager: manager ? { id: manager.id, name: manager.name, image: manager.image ?? null } : null,
      reportCount: u.reportCount ?? 0,
      isComplete: isComplete(u),
    };
  });
}

export async function toProfile(user: UserItem, viewer: Viewer) {
  return (await toProfiles([user], viewer))[0];
}

/** Directory entries, teams read fresh. */
export async function toDirectoryEntries(users: UserItem[]) {
  const [teams, presence] = await Promise.all([teamsOf(users), presencesOf(users.map((u) => u.id))]);
  return users.map((u) => entryFields(u, teams, presence));
}
