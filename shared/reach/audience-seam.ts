import type { PostItem } from '../feed/entities.ts';
import type { Viewer } from '../feed/people.ts';
import type { RosterPerson } from '../people/roster.ts';

/**
 * Where targeted posts (issue 48 items 2–3, the feed area's) plug into reach. Every function here
 * answers for an untargeted post as the specification's feed does: the whole company. The lead wires
 * the targeted case at the merge, at the three places marked TARGETED below; nothing else of reach
 * knows how an audience is kept.
 */

/** The audience a post was targeted to (its id), or null for the whole company. */
export function audienceIdOf(_post: PostItem): string | null {
  // TARGETED: the post's frozen audience's id (a rule given inline has an id of its own, or null).
  return null;
}

/** Whether a person may see a post (its audience, its author, super admins): what a seen mark and a reaction count. */
export function maySee(_viewer: Viewer, _post: PostItem): boolean {
  // TARGETED: the feed's visibility check of a targeted post.
  return true;
}

/**
 * The people a post targets, frozen at publish (read by the background once, at the post's INSERT):
 * for an untargeted post, everybody active or pending (not deactivated) who joined at or before it, but
 * its author — the people an announcement notifies and a must-read asks. `company` is the roster now.
 */
export async function targetedPeople(post: PostItem, company: RosterPerson[]): Promise<RosterPerson[]> {
  // TARGETED: page the post's frozen audience members (the feed area's export) and keep their rows of `company`.
  return company.filter((p) => p.status !== 'deactivated' && p.id !== post.authorId && p.joinedAt <= post.createdAt);
}
