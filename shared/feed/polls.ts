import { closingPollsIndex, postStatsKey, postVoteKey, postVotesPrefix } from '../db/keys.ts';
import {
  getItem,
  isConditionFailure,
  queryAll,
  queryPage,
  retryOnConflict,
  type TransactItem,
  transact,
} from '../db/table.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { type MentionView, mentionIn } from '../people/person-views.ts';
import { getUsers } from '../people/users.ts';
import { choiceCountUpdate } from './choice-counts.ts';
import { PollClosedNotice, PollVote, Post } from './entities.ts';
import type { PostItem, PostStatsItem, VoteItem } from './model.ts';
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
async function pollPost(viewer: Viewer, postId: string): Promise<PostItem & { poll: NonNullable<PostItem['poll']> }> {
  const post = await readablePost(viewer, postId, true);
  if (!post.poll) throw notFound('This post has no poll.');
  return post as PostItem & { poll: NonNullable<PostItem['poll']> };
}

const statsOf = async (postId: string) =>
  (await getItem<PostStatsItem>(postStatsKey(postId), true)) ?? emptyStats(postId);

export async function vote(caller: Viewer, postId: string, optionId: string): Promise<PollView> {
  return retryOnConflict(async () => {
    const post = await pollPost(caller, postId);
    if (isPollClosed(post.poll)) throw conflict('The poll is closed.');
    if (!post.poll.options.some((o) => o.id === optionId)) throw invalid(['optionId: no such option in this poll']);
    const current = await getItem<VoteItem>(PollVote.key(postId, caller.userId), true);
    const now = new Date().toISOString();
    const held = current?.optionId ?? null;
    const next = held === optionId ? null : optionId;
    const heldCondition = held
      ? { ConditionExpression: 'optionId = :held', ExpressionAttributeValues: { ':held': held } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    const writes: TransactItem[] = [
      next
        ? PollVote.put(
            { postId, userId: caller.userId, optionId: next, votedAt: now, actorId: caller.userId },
            heldCondition,
          )
        : PollVote.remove([postId, caller.userId], heldCondition),
      choiceCountUpdate(postId, 'tallies', 'pollTotal', held, next, caller.userId), // Still there, visible to the voter, and open (closing by time or by the author races the vote).
      Post.check([postId], {
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
      }),
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
  const post = await pollPost(caller, postId);
  if (post.authorId !== caller.userId) throw forbidden('Only the author can close the poll.');
  if (isPollClosed(post.poll)) throw conflict('The poll is already closed.');
  const now = new Date().toISOString();
  try {
    const left = leftIndexes({ ...post, poll: { ...post.poll, closedAt: now }, pollClosedNotifiedAt: now });
    await transact([
      Post.update([postId], {
        UpdateExpression: `SET #poll.closedAt = :now, pollClosedNotifiedAt = :now, actorId = :a REMOVE ${left.remove} ADD rev :one`,
        ConditionExpression: '#poll.closedAt = :null AND #poll.closesAt > :now',
        ExpressionAttributeNames: { '#poll': 'poll', ...left.names },
        ExpressionAttributeValues: { ':now': now, ':null': null, ':a': caller.userId, ':one': 1 },
      }),
      PollClosedNotice.create(pollClosedNotice(postId, caller.userId, now)),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw conflict('The poll is already closed.');
    throw err;
  }
  const closed = { ...post, poll: { ...post.poll, closedAt: now } };
  const mine = await getItem<VoteItem>(postVoteKey(postId, caller.userId), true);
  return pollView(closed.poll, await statsOf(postId), mine?.optionId ?? null);
}

/**
 * The index attributes a post no longer has once its closing is announced (the closing-polls index is
 * sparse, see Post's declaration), as a REMOVE list and its names.
 */
function leftIndexes(after: PostItem) {
  const left = Post.indexChanges(after).remove;
  return {
    remove: left.map((_, i) => `#left${i}`).join(', '),
    names: Object.fromEntries(left.map((name, i) => [`#left${i}`, name])),
  };
}

/** Every vote of a poll: bounded by the number of people. */
const votesOf = (postId: string) => queryAll<VoteItem>({ ...postVotesPrefix(postId), consistent: true });

/** Who voted for what, every option listed; 403 until the poll closes. */
export async function pollVoters(
  viewer: Viewer,
  postId: string,
): Promise<{ optionId: string; voters: MentionView[] }[]> {
  const post = await pollPost(viewer, postId);
  if (!isPollClosed(post.poll)) throw forbidden('Voters are shown once the poll has closed.');
  const votes = (await votesOf(postId)).sort((a, b) => a.votedAt.localeCompare(b.votedAt));
  const users = await getUsers(votes.map((v) => v.userId));
  return post.poll.options.map((o) => ({
    optionId: o.id,
    voters: votes.filter((v) => v.optionId === o.id).map((v) => mentionIn(users, v.userId)),
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
    const page = await queryPage<PostItem>({
      index: closingPollsIndex.index,
      pk: closingPollsIndex.pk,
      skBefore: `${now.toISOString()}#~`,
      limit: 50,
      cursor,
    });
    for (const post of page.items) {
      if (!post.poll) continue;
      try {
        const left = leftIndexes({ ...post, pollClosedNotifiedAt: now.toISOString() });
        // Still on the closing-polls index (its declaration): not closed by the author, not announced.
        await transact([
          Post.update([post.id], {
            UpdateExpression: `SET pollClosedNotifiedAt = :now REMOVE ${left.remove} ADD rev :one`,
            ConditionExpression:
              'attribute_exists(pk) AND #poll.closedAt = :null AND attribute_not_exists(pollClosedNotifiedAt)',
            ExpressionAttributeNames: { '#poll': 'poll', ...left.names },
            ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null, ':one': 1 },
          }),
          PollClosedNotice.create(pollClosedNotice(post.id, null, now.toISOString())),
        ]);
      } catch (err) {
        if (isConditionFailure(err)) continue; // another run (or the author) got there first
        throw err;
      }
      announced++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return announced;
}
