import type { z } from 'zod';
import { FAVOURITE_FIELDS, LINK_FIELDS, type Profile } from '../api/schemas/common.ts';
import { teamKey } from '../db/keys.ts';
import { getMany } from '../db/table.ts';
import { presenceOf } from '../presence/view.ts';
import { getUsers, type UserItem } from './users.ts';

export interface Viewer {
  userId: string;
  role: 'member' | 'super_admin';
}

export interface TeamItem {
  id: string;
  name: string;
  color: 'blue' | 'emerald' | 'violet' | 'amber' | 'rose' | 'cyan' | 'orange' | 'slate';
  memberCount?: number;
}

/** Decisions 3: title, bio, location, at least one skill, and an avatar. */
export const isComplete = (u: UserItem) => Boolean(u.title && u.bio && u.location && u.skills.length > 0 && u.image);

/**
 * Full profiles for these people as `viewer` sees them. Manager and team are read fresh (batch reads)
 * so a rename shows everywhere on the next read.
 */
export async function toProfiles(users: UserItem[], viewer: Viewer): Promise<z.input<typeof Profile>[]> {
  const managers = await getUsers(users.map((u) => u.managerId).filter((x): x is string => !!x));
  const teamIds = [...new Set(users.map((u) => u.teamId).filter((x): x is string => !!x))];
  const teams = await getMany<TeamItem>(teamIds.map(teamKey));
  const teamById = new Map([...teams.values()].map((t) => [t.id, t]));
  return users.map((u) => {
    const manager = u.managerId ? managers.get(u.managerId) : undefined;
    const team = u.teamId ? teamById.get(u.teamId) : undefined;
    const seesPrivate = viewer.userId === u.id || viewer.role === 'super_admin';
    const links = Object.fromEntries([...LINK_FIELDS, ...FAVOURITE_FIELDS].map((k) => [k, (u[k] as string) ?? '']));
    return {
      id: u.id,
      name: u.name,
      email: u.email,
      role: u.role,
      image: u.image ?? null,
      title: u.title ?? '',
      location: u.location ?? '',
      bio: u.bio ?? '',
      currentWork: u.currentWork ?? '',
      department: u.department ?? '',
      team: team ? { id: team.id, name: team.name, color: team.color } : null,
      skills: u.skills ?? [],
      learningInterests: u.learningInterests ?? [],
      hobbies: u.hobbies ?? [],
      interests: u.interests ?? [],
      projects: u.projects ?? [],
      ...(links as Record<(typeof LINK_FIELDS)[number] | (typeof FAVOURITE_FIELDS)[number], string>),
      joinedAt: u.joinedAt,
      joinedOn: u.joinedOn ?? null,
      dateOfBirth: seesPrivate ? (u.dateOfBirth ?? null) : null,
      status: u.status,
      ...presenceOf(u),
      postCount: u.postCount ?? 0,
      manager: manager ? { id: manager.id, name: manager.name, image: manager.image ?? null } : null,
      reportCount: u.reportCount ?? 0,
      isComplete: isComplete(u),
    };
  });
}

export async function toProfile(user: UserItem, viewer: Viewer) {
  return (await toProfiles([user], viewer))[0];
}
