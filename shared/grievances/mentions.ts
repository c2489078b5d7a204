import { invalid } from '../errors.ts';
import { getUsers } from '../people/users.ts';

/** At most 20 people tagged per reply. */
export const MAX_MENTIONS = 20;
const TOKEN = /@\[([^\]\s]{1,200})\]/g;

/** The distinct ids of `@[userId]` tokens, in the body's order. */
export function mentionTokens(body: string): string[] {
  return [...new Set([...body.matchAll(TOKEN)].map((m) => m[1]))];
}

/**
 * `text` without the author's own `@[authorId]` tokens. `mentions` never lists the author, so a token
 * of theirs left in the text would be the one token nobody resolves, and would name the author of an
 * anonymous grievance or reply to every reader. Removed until none is left, because taking one out can
 * join its neighbours into a new one (`@@[me][me]`).
 */
export function withoutOwnTokens(text: string, authorId: string): string {
  const own = `@[${authorId}]`;
  let out = text;
  while (out.includes(own)) out = out.split(own).join('');
  return out;
}

/**
 * A field the author wrote, without their own tokens; a field left empty (or white space) by that is
 * refused like an empty one, and so is one left shorter than its minimum.
 */
export function authoredText(field: string, text: string, authorId: string, min = 1): string {
  const out = withoutOwnTokens(text, authorId);
  if (out !== text && (out.trim().length === 0 || out.length < min))
    throw invalid([`${field}: must be at least ${min} character${min === 1 ? '' : 's'} besides your own @[id]`]);
  return out;
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
