import { WishCounter } from '../../shared/calendar/entities.ts';
import type { Item } from '../../shared/db/table.ts';
import { REACTIONS } from '../../shared/feed/model.ts';
import { PresentCounter } from '../../shared/hr/entities.ts';
import { Notification } from '../../shared/notifications/entities.ts';
import { coveredBy } from '../../shared/notifications/notifications.ts';
import { POSTS_SORT_ATTRIBUTE } from '../../shared/people/derived-from-person.ts';
import { DirectoryFacet, type FacetKind } from '../../shared/people/entities.ts';
import { isListed, postsAttribute } from '../../shared/people/listing.ts';
import type { PersonOfEveryKind } from './person-seed.ts';
import { scanTable } from './stored-data.ts';

/**
 * The stored counters checked against what they count: over the whole table (the upgrade test), or
 * within the world of one seeded person (the data-rights tests, in a table other test files share).
 */

const countBy = <T>(list: T[], keyOf: (t: T) => string | undefined) => {
  const counts = new Map<string, number>();
  for (const t of list) {
    const k = keyOf(t);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
};

/**
 * Every stored counter that differs from what it counts, over the whole table (one line each; empty
 * when all hold).
 *
 * A Scan is no snapshot: with other tests writing meanwhile, a counter and what it counts may be read
 * on either side of one transaction. So, when the items are not given, a mismatch is reported only when
 * it is seen again by up to two further scans a moment apart; a real one stays.
 */
export async function checkCounters(
  opts: { items?: Item[]; within?: (items: Item[]) => Item[] } = {},
): Promise<string[]> {
  if (opts.items) return counterMismatches(opts.items);
  const within = opts.within ?? ((items: Item[]) => items);
  let seen = counterMismatches(within(await scanTable()));
  for (let again = 0; again < 2 && seen.length; again++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = new Set(counterMismatches(within(await scanTable())));
    seen = seen.filter((p) => now.has(p));
  }
  return seen;
}

/** The needles of a seeded world for `itemsAbout`: its people, team, posts and the subject's title (a facet). */
export const worldOf = (seeded: PersonOfEveryKind, also: string[] = []): string[] => {
  const { ids } = seeded;
  return [
    seeded.subject.id,
    seeded.other1.id,
    seeded.other2.id,
    ids.teamId,
    ids.imagePostId,
    ids.pollPostId,
    ids.sharePostId,
    ids.otherPostId,
    ids.mentionPostId,
    ids.recognitionPostId,
    `subject of ${seeded.subject.name.split(' ').pop()}`,
    ...also,
  ];
};

/**
 * The items of one seeded world, for `checkCounters({ within })` in a table other test files share (and
 * seed in bulk, counters and all, as they need): every item that carries one of `needles` (its people,
 * posts, team; counters are keyed by what they count, so they carry them too), and everybody's
 * attendance on `days` with those days' present counts, which count the whole company.
 */
export const itemsAbout =
  (needles: string[], days: string[] = []) =>
  (items: Item[]): Item[] =>
    items.filter((i) => {
      if (i.entity === 'AttendanceRecord' && days.includes(i.date)) return true;
      if (i.entity === 'PresentCounter' && days.some((d) => i.pk === `ATTENDANCE_DAY#${d}`)) return true;
      const text = JSON.stringify(i, (_k, v) => (v instanceof Set ? [...v] : v));
      return needles.some((n) => text.includes(n));
    });

/**
 * The counters of these items that differ from what they count. Only counters kept exact, in the
 * transaction of every change of what they count:
 * - a person's unread notifications (NotificationCounter.unread: their notifications with no readAt that
 *   their read-up-to mark does not cover, shared/notifications/notifications.ts `coveredBy`);
 * - a post's reactions, per kind and in total (PostReaction items holding a reaction: a reaction taken
 *   back leaves its item without one), comments (every comment of the post still reachable: top-level
 *   ones and replies whose thread is there; deleting a thread drops its replies from the count), shares
 *   by others than the author, and poll tallies and total (PollVote items);
 * - a comment's likes, dislikes (CommentVote items) and replies (comments whose parentId it is);
 * - a team's memberships (TeamMember items; teams whose counter holds, `membershipsCounted`);
 * - wishes received per person and year (WishCounter: BirthdayWish items);
 * - people present per company day (PresentCounter: AttendanceRecord items without a check-out);
 * - a person's postCount (their Post items, shares included), its copy in the directory's posts index
 *   sort key and in their directory shard's `posts_<userId>`;
 * - counted over listed people (every status but deactivated): a team's memberCount, a manager's
 *   reportCount, and each directory facet's people (distinct skills, title and location, any case).
 */
function counterMismatches(items: Item[]): string[] {
  const of = (entity: string) => items.filter((i) => i.entity === entity);
  const problems: string[] = [];
  const expectEqual = (what: string, stored: unknown, counted: number) => {
    if ((stored ?? 0) !== counted) problems.push(`${what}: stored ${String(stored)}, counted ${counted}`);
  };

  const notifications = of('Notification').filter((n) => Notification.is(n));
  const marks = new Map(
    of('NotificationCounter').map((c) => [
      c.pk as string,
      c.readUpTo ? { upTo: c.readUpTo as string, at: (c.readAllAt ?? c.readUpTo) as string } : null,
    ]),
  );
  const unread = countBy(
    notifications.filter((n) => !n.readAt && !coveredBy(n, marks.get(n.pk as string) ?? null)),
    (n) => n.pk,
  );
  const counters = new Map(of('NotificationCounter').map((c) => [c.pk as string, c.unread]));
  for (const pk of new Set([...counters.keys(), ...unread.keys()]))
    expectEqual(`NotificationCounter ${pk} unread`, counters.get(pk), unread.get(pk) ?? 0);

  const posts = new Map(of('Post').map((p) => [p.id as string, p]));
  const comments = of('Comment');
  const commentIds = new Set(comments.map((c) => c.id as string));
  const reachable = comments.filter((c) => !c.parentId || commentIds.has(c.parentId));
  const reactions = of('PostReaction').filter((r) => r.reaction);
  const votes = of('PollVote');
  for (const s of of('PostStats')) {
    const id = s.postId as string;
    const held = reactions.filter((r) => r.postId === id);
    expectEqual(`PostStats ${id} reactionTotal`, s.reactionTotal, held.length);
    for (const kind of new Set([...REACTIONS, ...Object.keys(s.reactions ?? {})]))
      expectEqual(
        `PostStats ${id} reactions.${kind}`,
        s.reactions?.[kind],
        held.filter((r) => r.reaction === kind).length,
      );
    expectEqual(`PostStats ${id} commentCount`, s.commentCount, reachable.filter((c) => c.postId === id).length);
    const author = posts.get(id)?.authorId;
    expectEqual(
      `PostStats ${id} shareCount`,
      s.shareCount,
      [...posts.values()].filter((p) => p.sharedPostId === id && p.authorId !== author).length,
    );
    const cast = votes.filter((v) => v.postId === id);
    expectEqual(`PostStats ${id} pollTotal`, s.pollTotal, cast.length);
    const options = new Set([...Object.keys(s.tallies ?? {}), ...cast.map((v) => v.optionId as string)]);
    for (const option of options)
      expectEqual(
        `PostStats ${id} tallies.${option}`,
        s.tallies?.[option],
        cast.filter((v) => v.optionId === option).length,
      );
  }

  const commentVotes = of('CommentVote');
  const replies = countBy(comments, (c) => c.parentId ?? undefined);
  for (const c of comments) {
    const cast = commentVotes.filter((v) => v.commentId === c.id);
    expectEqual(`Comment ${c.id} likeCount`, c.likeCount, cast.filter((v) => v.vote === 'like').length);
    expectEqual(`Comment ${c.id} dislikeCount`, c.dislikeCount, cast.filter((v) => v.vote === 'dislike').length);
    expectEqual(`Comment ${c.id} replyCount`, c.replyCount, replies.get(c.id) ?? 0);
  }

  const memberships = countBy(of('TeamMember'), (m) => m.teamId);
  for (const t of of('Team').filter((t) => t.membershipsCounted))
    expectEqual(`Team ${t.id} memberships`, t.memberships, memberships.get(t.id) ?? 0);

  const keyString = (k: { pk: string; sk: string }) => `${k.pk}|${k.sk}`;
  const wishes = countBy(of('BirthdayWish'), (w) =>
    keyString(WishCounter.key({ recipientId: w.recipientId, year: w.year })),
  );
  const wishCounters = new Map(of('WishCounter').map((c) => [keyString(c as any), c.wishCount]));
  for (const k of new Set([...wishCounters.keys(), ...wishes.keys()]))
    expectEqual(`WishCounter ${k} wishCount`, wishCounters.get(k), wishes.get(k) ?? 0);

  const present = countBy(
    of('AttendanceRecord').filter((r) => !r.checkOut),
    (r) => keyString(PresentCounter.key({ date: r.date })),
  );
  const presentCounters = new Map(of('PresentCounter').map((c) => [keyString(c as any), c.present]));
  for (const k of new Set([...presentCounters.keys(), ...present.keys()]))
    expectEqual(`PresentCounter ${k} present`, presentCounters.get(k), present.get(k) ?? 0);

  const authored = countBy([...posts.values()], (p) => p.authorId);
  const rows = new Map(of('DirectoryPerson').map((r) => [r.id as string, r]));
  const shardCounts = new Map<string, unknown>();
  for (const shard of of('DirectoryShardPosts'))
    for (const [k, v] of Object.entries(shard)) if (k.startsWith(postsAttribute(''))) shardCounts.set(k, v);
  for (const u of of('User')) {
    const count = authored.get(u.id) ?? 0;
    expectEqual(`User ${u.id} postCount`, u.postCount, count);
    if (POSTS_SORT_ATTRIBUTE in u) expectEqual(`User ${u.id} ${POSTS_SORT_ATTRIBUTE}`, u[POSTS_SORT_ATTRIBUTE], count);
    if (shardCounts.has(postsAttribute(u.id)))
      expectEqual(`DirectoryShardPosts ${postsAttribute(u.id)}`, shardCounts.get(postsAttribute(u.id)), count);
    // The directory row (0.4.0): its post count and the posts index's sort key, moved with the profile's.
    const row = rows.get(u.id);
    if (row) {
      expectEqual(`DirectoryPerson ${u.id} postCount`, row?.postCount, count);
      expectEqual(`DirectoryPerson ${u.id} ${POSTS_SORT_ATTRIBUTE}`, row?.[POSTS_SORT_ATTRIBUTE], count);
    }
  }
  const listed = of('User').filter(isListed as (u: Item) => boolean);
  const onTeam = countBy(listed, (u) => u.teamId ?? undefined);
  // A deleted team's people are being unassigned in the background: it is no team to any read.
  for (const t of of('Team').filter((t) => !t.deletingAt))
    expectEqual(`Team ${t.id} memberCount`, t.memberCount, onTeam.get(t.id) ?? 0);
  const reports = countBy(listed, (u) => u.managerId ?? undefined);
  for (const u of of('User')) expectEqual(`User ${u.id} reportCount`, u.reportCount, reports.get(u.id) ?? 0);
  const holders = new Map<string, number>();
  for (const u of listed) {
    const held = new Set<string>();
    const add = (kind: string, value: unknown) => {
      const v = typeof value === 'string' ? value.trim() : '';
      if (v) held.add(keyString(DirectoryFacet.key({ kind: kind as FacetKind, value: v })));
    };
    for (const skill of u.skills ?? []) add('skill', skill);
    add('title', u.title);
    add('location', u.location);
    for (const k of held) holders.set(k, (holders.get(k) ?? 0) + 1);
  }
  const facets = new Map(of('DirectoryFacet').map((f) => [keyString(f as any), f.people]));
  for (const k of new Set([...facets.keys(), ...holders.keys()]))
    expectEqual(`DirectoryFacet ${k} people`, facets.get(k), holders.get(k) ?? 0);
  return problems;
}
