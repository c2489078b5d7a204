import { changePerson } from './change-person.ts';
import type { UserItem } from './users.ts';

/**
 * A pending member's first successful sign-in makes them active. It goes through the
 * people area's writer because the directory filters by status.
 */
export async function activateOnFirstSignIn(userId: string): Promise<UserItem> {
  return changePerson(userId, (u) => (u.status === 'pending' ? { ...u, status: 'active' } : u), { actorId: userId });
}
