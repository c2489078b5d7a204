import type { UserItem } from '../people/users.ts';

/** The small person shapes the calendar and HR answers carry (names and images read fresh). */
export const mentionOf = (u: UserItem) => ({ id: u.id, name: u.name, image: u.image ?? null });

export const personOf = (u: UserItem) => ({ id: u.id, name: u.name, email: u.email, image: u.image ?? null });

/** Who is reading: the caller's id and role (read fresh on every request). */
export interface Viewer {
  userId: string;
  role: UserItem['role'];
}

export const isSuperAdmin = (viewer: Viewer) => viewer.role === 'super_admin';
