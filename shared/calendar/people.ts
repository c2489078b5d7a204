import type { UserItem } from '../people/users.ts';

/** Who is reading: the caller's id and role (read fresh on every request). */
export interface Viewer {
  userId: string;
  role: UserItem['role'];
}

export const isSuperAdmin = (viewer: Viewer) => viewer.role === 'super_admin';
