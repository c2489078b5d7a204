import { ruleMembers } from '../audiences/audiences.ts';
import { PostAudience, type PostItem } from '../feed/entities.ts';
import { readableOf } from '../feed/may-read.ts';
import type { Viewer } from '../feed/people.ts';
import type { RosterPerson } from '../people/roster.ts';

/**
 * Where targeted posts (the feed's, docs/audiences.md) meet reach: which audience a post was for, who
 * may mark it seen, and whom it targeted. An untargeted post answers as the specification's feed does:
 * the whole company.
 */

/** The saved audience a post was targeted to (its id), or null: the whole company, or a rule given inline. */
export function audienceIdOf(post: PostItem): string | null {
  return post.audience?.id ?? null;
}

/** Which of these posts a person may see (the feed's check: one batch read for the targeted ones). */
export function seeable(viewer: Viewer, posts: PostItem[]): Promise<Set<string>> {
  return readableOf(viewer, posts);
}

/**
 * The people a post targets, frozen at publish (read by the background once, at the post's INSERT):
 * everybody not deactivated who joined at or before it, but its author — the people an announcement
 * notifies and a must-read asks; for a targeted post, of those, whom its rule selected at publish (the
 * rule and cutoff its audience state froze, evaluated as the feed's fan-out evaluates them, which may
 * still be recording its readers). `company` is the roster now.
 */
export async function targetedPeople(post: PostItem, company: RosterPerson[]): Promise<RosterPerson[]> {
  const everyone = company.filter(
    (p) => p.status !== 'deactivated' && p.id !== post.authorId && p.joinedAt <= post.createdAt,
  );
  if (!post.audience) return everyone;
  const frozen = await PostAudience.get({ postId: post.id }, { consistent: true });
  if (!frozen) return [];
  const selected = new Set(
    (await ruleMembers(frozen.rule)).filter((m) => m.joinedAt <= frozen.cutoff).map((m) => m.id),
  );
  return everyone.filter((p) => selected.has(p.id));
}
