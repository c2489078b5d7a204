import { page } from '../db/paging.ts';
import { isConditionFailure, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { type MentionView, mentionIn } from '../people/person-views.ts';
import { getUser, getUsers } from '../people/users.ts';
import { choiceCountUpdate } from './choice-counts.ts';
import { PollClosedNotice, PollVote, Post, type PostItem, PostStats } from './entities.ts';
import { isPrivileged, type Viewer } from './people.ts';
import { pollClosedNotice } from './poll-closed-notices.ts';
import { emptyStats, isPollClosed, type PollView, pollView } from './post-view.ts';
import { readablePost } from './posts.ts';

/**
 * Polls: one vote per person, voting for the option held takes it
 * back, tallies move in the vote's transaction. Closed by the author early (one-way) or by time:
 * `isClosed` is computed on read, and a sweep announces closings by time (poll_closed). Either
 * closing writes the poll's closing notice in its own transaction; the voters, as many as the
 * company has people, are told in the background (poll-closed-notices.ts).
 */
type PollPost = PostItem & { poll: NonNullable<PostItem['poll']> };
const hasPoll = (post: PostItem): post is PollPost => !!post.poll;

async function pollPost(viewer: Viewer, postId: string): Promise<PollPost> {
  const post = await readablePost(viewer, postId, true);
  if (!hasPoll(post)) throw notFound('This post has no poll.');
  return post;
}

const statsOf = async (postId: string) => (await PostStats.get({ postId }, { consistent: true })) ?? emptyStats(postId);

export async function vote(caller: Viewer, postId: string, optionId: string): Promise<PollView> {
  return retryOnConflict(async () => {
    const post = await pollPost(caller, postId);
    if (isPollClosed(post.poll)) throw conflict('The poll is closed.');
    if (!post.poll.options.some((o) => o.id === optionId)) throw invalid(['optionId: no such option in this poll']);
    const [current, me] = await Promise.all([
      PollVote.get({ postId, userId: caller.userId }, { consistent: true }),
      getUser(caller.userId),
    ]);
    const now = new Date().toISOString();
    const held = current?.optionId ?? null;
    const next = held === optionId ? null : optionId;
    const heldCondition = held
      ? { ConditionExpression: 'optionId = :held', ExpressionAttributeValues: { ':held': held } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    const writes: TransactItem[] = [
      next
        ? PollVote.put(
            {
              postId,
              userId: caller.userId,
              optionId: next,
              votedAt: now,
              actorId: caller.userId,
              // The voter as named when voting: the voters' list reads no profile (pollVoters).
              ...(me ? { name: me.name, image: me.image ?? null } : {}),
            },
            heldCondition,
          )
        : PollVote.remove({ postId, userId: caller.userId }, heldCondition),
      choiceCountUpdate(postId, 'tallies', 'pollTotal', held, next, caller.userId), // Still there, visible to the voter, and open (closing by time or by the author races the vote).
      Post.check(
        { id: postId },
        {
          ConditionExpression: `attribute_exists(pk) AND #poll.closedAt = :null AND #poll.closesAt > :now${isPrivileged(caller, post.authorId) ? '' : ' AND #hidden = :false'}`,
          ExpressionAttributeNames: {
            '#poll': 'poll',
            ...(isPrivileged(caller, post.authorId) ? {} : { '#hidden': 'hidden' }),
          },
          ExpressionAttributeValues: {
            ':null': null,
            ':now': now,
            ...(isPrivileged(caller, post.authorId) ? {} : { ':false': false }),
          },
        },
      ),
    ];
    await transact(writes);
    return pollView(post.poll, await statsOf(postId), next);
  });
}

/**
 * Ends voting early; author only (403), a closed poll is a 409. The voters are told (the author is
 * the actor) by the feed fan-out from the closing notice written here: the request's work does not
 * grow with the number of voters.
 */
export async function closePoll(caller: Viewer, postId: string): Promise<PollView> {
  const closed = await retryOnConflict(
    async () => {
      const post = await pollPost(caller, postId);
      if (post.authorId !== caller.userId) throw forbidden('Only the author can close the poll.');
      if (isPollClosed(post.poll)) throw conflict('The poll is already closed.');
      const now = new Date().toISOString();
      // Closed and announced at once: off the closing-polls index (its declaration), by `change`.
      const after = {
        ...post,
        poll: { ...post.poll, closedAt: now },
        pollClosedNotifiedAt: now,
        actorId: caller.userId,
        rev: post.rev + 1,
      };
      await transact([
        Post.change(post, after, {
          ConditionExpression: '#poll.closedAt = :null AND #poll.closesAt > :now AND rev = :seen',
          ExpressionAttributeNames: { '#poll': 'poll' },
          ExpressionAttributeValues: { ':now': now, ':null': null, ':seen': post.rev },
        }),
        PollClosedNotice.create(pollClosedNotice(postId, caller.userId, now)),
      ]);
      return after;
    },
    // Changed meanwhile (closed by the sweep, or edited): read again; still failing, it is closed.
    { exhausted: () => conflict('The poll is already closed.') },
  );
  const mine = await PollVote.get({ postId, userId: caller.userId }, { consistent: true });
  return pollView(closed.poll, await statsOf(postId), mine?.optionId ?? null);
}

/** Every vote of a poll: bounded by the number of people. */
const votesOf = (postId: string) => PollVote.queryAll({ key: { postId }, consistent: true });

/**
 * Who voted for what, every option listed; 403 until the poll closes. A whole list (the spec's
 * answer): one Query of the votes, each holding its voter's name and picture as when they voted, so
 * no profile is read; only votes recorded before names were stored (0.3.0) are completed by one batch
 * read of those voters' profiles. A voter renamed since is listed by the name they voted under.
 */
export async function pollVoters(
  viewer: Viewer,
  postId: string,
): Promise<{ optionId: string; voters: MentionView[] }[]> {
  const post = await pollPost(viewer, postId);
  if (!isPollClosed(post.poll)) throw forbidden('Voters are shown once the poll has closed.');
  const votes = (await votesOf(postId)).sort((a, b) => a.votedAt.localeCompare(b.votedAt));
  const users = await getUsers(votes.filter((v) => v.name === undefined).map((v) => v.userId));
  const voter = (v: (typeof votes)[number]): MentionView =>
    v.name !== undefined ? { id: v.userId, name: v.name, image: v.image ?? null } : mentionIn(users, v.userId);
  return post.poll.options.map((o) => ({
    optionId: o.id,
    voters: votes.filter((v) => v.optionId === o.id).map(voter),
  }));
}

/**
 * The closing sweep (a schedule, every minute): every poll whose `closesAt` passed and whose closing
 * was not announced yet is claimed (its closing-index entry removed, so exactly one run announces it)
 * together with its closing notice, from which the feed fan-out tells its author and voters. Cost:
 * one Query of the due polls, then per poll 1 T.
 */
export async function announceClosedPolls(now = new Date()): Promise<number> {
  let announced = 0;
  let cursor: string | undefined;
  do {
    const due = await Post.query(
      { index: 'closingPolls', key: {}, skBefore: `${now.toISOString()}#~` },
      page({ limit: 50, cursor }),
    );
    for (const post of due.items) {
      if (!post.poll) continue;
      try {
        // Still on the closing-polls index (its declaration): not closed by the author, not announced.
        // Announcing takes it off the index (`change`).
        await transact([
          Post.change(
            post,
            { ...post, pollClosedNotifiedAt: now.toISOString(), rev: post.rev + 1 },
            {
              ConditionExpression:
                'attribute_exists(pk) AND #poll.closedAt = :null AND attribute_not_exists(pollClosedNotifiedAt) AND rev = :seen',
              ExpressionAttributeNames: { '#poll': 'poll' },
              ExpressionAttributeValues: { ':null': null, ':seen': post.rev },
            },
          ),
          PollClosedNotice.create(pollClosedNotice(post.id, null, now.toISOString())),
        ]);
      } catch (err) {
        if (isConditionFailure(err)) continue; // another run (or the author) got there first
        throw err;
      }
      announced++;
    }
    cursor = due.nextCursor ?? undefined;
  } while (cursor);
  return announced;
}
