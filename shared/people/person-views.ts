import type { UserItem } from './users.ts';

/**
 * The small shapes in which answers name people, read fresh on every request (names and images change):
 * a mention `{ id, name, image }` and, where the caller may see the address, a person with `email`.
 */
export interface MentionView {
  id: string;
  name: string;
  image: string | null;
}

export interface PersonView extends MentionView {
  email: string;
}

export const mentionOf = (u: Pick<UserItem, 'id' | 'name' | 'image'>): MentionView => ({
  id: u.id,
  name: u.name,
  image: u.image ?? null,
});

export const personOf = (u: Pick<UserItem, 'id' | 'name' | 'email' | 'image'>): PersonView => ({
  ...mentionOf(u),
  email: u.email,
});

/** Someone whose account is gone still needs a name on what they wrote. */
export const unknownPerson = (id: string): MentionView => ({ id, name: 'Former member', image: null });

/** The mention of `id` from a batch read of people, or the stand-in when the account is gone. */
export const mentionIn = (users: Map<string, UserItem>, id: string): MentionView => {
  const u = users.get(id);
  return u ? mentionOf(u) : unknownPerson(id);
};
