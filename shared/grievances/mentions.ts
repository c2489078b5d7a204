import { getUsers } from '../people/users.ts';

/** At most 20 people tagged per reply. */
export const MAX_MENTIONS = 20;
const TOKEN = /@\[([^\]\s]{1,200})\]/g;

/** The distinct ids of `@[userId]` tokens, in the body's order. */
export function mentionTokens(body: string): string[] {
  return [...new Set([...body.matchAll(TOKEN)].map((m) => m[1]))];
}

/**
 * The people a reply tags: the first 20 distinct people in the body's
 * order who exist and are not deactivated, never the author. Tokens matching nobody are dropped (they
 * stay in the body as text). Reads people 100 at a time and stops once 20 are found, so the cost is
 * bounded by the body's length, never by the data.
 */
export async function resolveMentions(body: string, authorId: string): Promise<string[]> {
  const candidates = mentionTokens(body).filter((id) => id !== authorId);
  const found: string[] = [];
  for (let i = 0; i < candidates.length && found.length < MAX_MENTIONS; i += 100) {
    const chunk = candidates.slice(i, i + 100);
    const users = await getUsers(chunk);
    for (const id of chunk) {
      const u = users.get(id);
      if (u && u.status !== 'deactivated' && found.length < MAX_MENTIONS) found.push(id);
    }
  }
  return found;
}
