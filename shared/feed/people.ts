import { type MentionView, mentionOf } from '../people/person-views.ts';
import type { UserItem } from '../people/users.ts';

export interface Viewer {
  userId: string;
  role: 'member' | 'super_admin';
}

/** Whether a person can be mentioned (deactivated people are left out of mention resolution). */
export const mentionable = (u: UserItem | undefined): u is UserItem => !!u && u.status !== 'deactivated';

/** The resolved mentions of a body's tokens: known, not deactivated people, in the body's order. */
export function resolveMentions(ids: string[], users: Map<string, UserItem>): MentionView[] {
  return ids.flatMap((id) => {
    const u = users.get(id);
    return mentionable(u) ? [mentionOf(u)] : [];
  });
}

/** Names by id for rendering tokens as text (public views, previews). */
export function mentionNames(ids: string[], users: Map<string, UserItem>): Map<string, string> {
  return new Map(resolveMentions(ids, users).map((m) => [m.id, m.name]));
}

export const isPrivileged = (viewer: Viewer, authorId: string) =>
  viewer.role === 'super_admin' || viewer.userId === authorId;
