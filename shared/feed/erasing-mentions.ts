import { NotificationCounter } from '../notifications/entities.ts';
import { getUsers } from '../people/users.ts';

const TOKEN = /@\[([^\]\s]{1,100})\]/g;

/**
 * A body as it is stored: without the `@[id]` tokens of people whose erasure is under way (issue 33,
 * the erasure's door). Such a token resolves to nobody and reads as nothing already (a deactivated
 * person is never a mention), so dropping it changes no view; keeping it would write the person's id
 * into the table after the erasure's walks passed. A person under erasure is one whose profile carries
 * `erasureId`, or, once the erasure deleted the profile, whose notification counter is still closed
 * (until the erasure ends). Costs nothing for a body without tokens; otherwise 1 BatchGet of the
 * profiles, plus 1 BatchGet of counters when a token names no profile.
 */
export async function withoutErasing(content: string): Promise<string> {
  const ids = [...new Set([...content.matchAll(TOKEN)].map((m) => m[1]))];
  if (!ids.length) return content;
  const users = await getUsers(ids);
  const erasing = new Set(ids.filter((id) => users.get(id)?.erasureId));
  const unknown = ids.filter((id) => !users.has(id));
  if (unknown.length) {
    const counters = await NotificationCounter.getMany(
      unknown.map((userId) => ({ userId })),
      { consistent: true },
    );
    unknown.forEach((id, i) => {
      if (counters[i]?.closed) erasing.add(id);
    });
  }
  if (!erasing.size) return content;
  return content.replace(TOKEN, (token, id: string) => (erasing.has(id) ? '' : token));
}
