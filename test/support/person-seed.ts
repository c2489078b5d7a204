import { inject } from 'vitest';
import { AnnouncementNotice, MustRead } from '../../shared/feed/entities.ts';
import { avatarOwnerTag } from '../../shared/people/avatar-tag.ts';
import { companyDate } from '../../shared/util/time.ts';
import { image, waitFor } from '../feed/helpers.ts';
import { expectStatus, newTeam, type Person, person, upload } from '../people/helpers.ts';
import { admin, api, PASSWORD, signIn, uniq } from './api.ts';

/**
 * The subject of the people's data rights tests (issue 28): a person with data of every kind, made
 * through the public API, with the two people their data involves. What is then looked for is in
 * person-traces.ts (what identifies them, anywhere stored), counters.ts (the stored counters of their
 * world) and read-routes.ts (every read route over what is stored).
 */

/** A person the seed made: their account and a session. */
export type SeededPerson = Pick<Person, 'id' | 'email' | 'name' | 'token'>;

/** The subject of the data-rights tests and everything made for them. */
export interface PersonOfEveryKind {
  /** The subject: what identifies them (the needles of `findTraces`) and two sessions of theirs. */
  subject: SeededPerson & { dateOfBirth: string; avatarTag: string; tokens: [string, string] };
  /** O1: reports to the subject, wishes and mentions them, reacts to and comments on their post. */
  other1: SeededPerson;
  /** O2: the subject's manager; born today as well, so the subject can wish them. */
  other2: SeededPerson;
  /** The ids of what was made, by kind. */
  ids: {
    teamId: string;
    /** The subject's posts: one with an uploaded image, one with a poll, and a share of O1's post. */
    imagePostId: string;
    imagePath: string;
    pollPostId: string;
    sharePostId: string;
    avatarPath: string;
    /** O1's posts: one the subject reacts to, comments on, votes in and bookmarks; one that mentions the subject. */
    otherPostId: string;
    otherPollOptionId: string;
    mentionPostId: string;
    recognitionPostId: string;
    /** The subject's comment on O1's post and their reply to O1's comment there; O1's comment the subject liked. */
    commentId: string;
    replyId: string;
    likedCommentId: string;
    /** O1's comment on the subject's image post. */
    commentOnSubjectPostId: string;
    /** The wish O1 sent the subject and the one the subject sent O2 (ids derived by the service). */
    wishToSubjectId: string;
    wishBySubjectId: string;
    /** The subject's own leave request (to O2) and O1's, decided by the subject. */
    leaveRequestId: string;
    decidedLeaveRequestId: string;
    /** The company day of the subject's check-in. */
    attendanceDate: string;
    presenceConnectionId: string;
    pushToken: string;
    /** A must-read announcement the subject acknowledged (docs/must-read.md). */
    mustReadPostId: string;
  };
}

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A date of birth whose day and month are today's in the company's timezone (1992: a leap year, for 29 February). */
const bornToday = (year: number) => `${year}${companyDate().slice(4)}`;

/** An annual leave request of the session's holder to `managerId`, over the two days from `inDays` days from now. */
const requestLeave = async (token: string, managerId: string, inDays: number, reason: string, what: string) =>
  expectStatus(
    await api('POST', '/leave/requests', {
      token,
      body: {
        leaveType: 'Annual leave',
        fromDate: dayFromNow(inDays),
        toDate: dayFromNow(inDays + 1),
        reason,
        selectedManagerId: managerId,
      },
    }),
    201,
    what,
  );

/** A post with a poll by the session's holder. */
const postPoll = async (
  token: string,
  content: string,
  question: string,
  options: string[],
  closesAt: string,
  what: string,
) =>
  expectStatus(
    await api('POST', '/posts', { token, body: { content, poll: { question, options, closesAt } } }),
    201,
    what,
  );

/**
 * Makes a subject S with data of every kind the issue names, through the public API of the local
 * runtime, with two other people: O2 (S's manager) and O1 (S's report). S is a super admin unless told
 * otherwise, so that a leave decision of theirs (O1's request, approved by S) is on record.
 * Returns when the notifications the background fan-out sends S (the mention) have arrived.
 *
 * S and O2 are born today in the company's timezone: birthday wishes are only taken on the birthday.
 * A `GET /birthdays/today` by anybody then claims both birthdays' announcements, which notify every
 * active member of the table (test/calendar/birthdays.test.ts avoids today for that reason).
 */
export async function seedPersonOfEveryKind(opts: { superAdmin?: boolean } = {}): Promise<PersonOfEveryKind> {
  const tag = uniq();
  const team = await newTeam(`Rights ${tag}`);

  const other2 = await person({ name: `Other Two ${tag}` });
  const s = await person({
    name: `Zed Erasable ${tag}`,
    managerId: other2.id,
    teamId: team.id,
    title: `Subject of ${tag}`,
    ...(opts.superAdmin === false ? {} : { role: 'super_admin' }),
  });
  const other1 = await person({ name: `Other One ${tag}`, managerId: s.id });
  // A second session of S (the first is `s.token`).
  const secondToken = (await signIn(s.email, PASSWORD)).token;
  // S came from the identity provider too: SCIM links the member it finds by address (their link to
  // the provider is theirs to export, and goes with them), the attributes sent as S has them.
  expectStatus(
    await api('POST', '/api/v1/scim/v2/Users', {
      token: inject('localEnv').SCIM_TOKEN!,
      body: {
        userName: s.email,
        externalId: `idp-${tag}`,
        displayName: `Zed Erasable ${tag}`,
        title: `Subject of ${tag}`,
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { manager: { value: other2.id } },
      },
    }),
    201,
    'S provisioned',
  );

  const dateOfBirth = bornToday(1992);
  expectStatus(
    await api('PATCH', '/users/me/profile', { token: s.token, body: { dateOfBirth } }),
    200,
    'S date of birth',
  );
  expectStatus(
    await api('PATCH', '/users/me/profile', { token: other2.token, body: { dateOfBirth: bornToday(1985) } }),
    200,
    'O2 date of birth',
  );
  const avatarPath = expectStatus(
    await upload('/users/me/avatar', s.token, await image(64, 64), 'me.png', 'image/png'),
    201,
    'avatar',
  ).image as string;

  // S's posts: an uploaded image, a poll; O1's posts: one for S to act on, one that mentions S, a recognition of S.
  const imagePath = expectStatus(
    await upload('/files/posts', s.token, await image(16, 16), 'photo.png', 'image/png'),
    201,
    'post image',
  ).path as string;
  const imagePost = expectStatus(
    await api('POST', '/posts', { token: s.token, body: { content: `Photo by S ${tag}`, images: [imagePath] } }),
    201,
    'image post',
  );
  const closesAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const pollPost = await postPoll(s.token, `S asks ${tag}`, 'Tea or coffee?', ['Tea', 'Coffee'], closesAt, 'S poll');
  const otherPost = await postPoll(other1.token, `O1 asks ${tag}`, 'Lunch?', ['Early', 'Late'], closesAt, 'O1 post');
  const mentionPost = expectStatus(
    await api('POST', '/posts', { token: other1.token, body: { content: `Thanks @[${s.id}] for the help ${tag}` } }),
    201,
    'mention of S',
  );
  const recognitionPost = expectStatus(
    await api('POST', '/posts', {
      token: other1.token,
      body: { recognition: { recipientId: s.id, category: 'teamwork', message: `Great work ${tag}` } },
    }),
    201,
    'recognition of S',
  );

  // An audience naming S beside O1 (docs/audiences.md): erasing S takes their id out of it, O1's stays.
  expectStatus(
    await api('POST', '/admin/audiences', {
      token: (await admin()).token,
      body: { name: `Rights ${tag}`, rule: { any: [{ userIds: [s.id, other1.id] }, { managerId: other2.id }] } },
    }),
    201,
    'audience naming S',
  );

  // Content reports: S reports O1's recognition post (S's filing); O1 reports S's image post (a report on S's content).
  expectStatus(
    await api('POST', `/posts/${recognitionPost.id}/report`, {
      token: s.token,
      body: { reason: 'other', details: `S explains ${tag}` },
    }),
    201,
    'S reports',
  );
  expectStatus(
    await api('POST', `/posts/${imagePost.id}/report`, { token: other1.token, body: { reason: 'spam' } }),
    201,
    'O1 reports S',
  );

  // S acts on O1's post: reaction, poll vote, comment, a reply to O1's comment (liked), bookmark, share.
  expectStatus(
    await api('POST', `/posts/${otherPost.id}/upvote`, { token: s.token, body: { reaction: 'love' } }),
    200,
    'react',
  );
  const otherPollOptionId = otherPost.poll.options[0].id as string;
  expectStatus(
    await api('POST', `/posts/${otherPost.id}/poll/vote`, { token: s.token, body: { optionId: otherPollOptionId } }),
    200,
    'vote',
  );
  const likedComment = expectStatus(
    await api('POST', `/posts/${otherPost.id}/comments`, { token: other1.token, body: { content: `O1 first ${tag}` } }),
    201,
    'O1 comment',
  );
  const comment = expectStatus(
    await api('POST', `/posts/${otherPost.id}/comments`, { token: s.token, body: { content: `S comments ${tag}` } }),
    201,
    'S comment',
  );
  const reply = expectStatus(
    await api('POST', `/posts/${otherPost.id}/comments`, {
      token: s.token,
      body: { content: `S replies ${tag}`, parentId: likedComment.id },
    }),
    201,
    'S reply',
  );
  expectStatus(
    await api('POST', `/comments/${likedComment.id}/vote`, { token: s.token, body: { vote: 'like' } }),
    200,
    'like',
  );
  expectStatus(await api('PUT', `/posts/${otherPost.id}/bookmark`, { token: s.token }), 204, 'bookmark');
  const share = expectStatus(
    await api('POST', `/posts/${otherPost.id}/share`, { token: s.token, body: {} }),
    201,
    'share',
  );

  // S acknowledges a must-read announcement; its fan-outs (the announcement to everybody, who must
  // acknowledge) are done before the seed returns, so no background write lands on anybody later.
  const mustRead = expectStatus(
    await api('POST', '/posts', {
      token: (await admin()).token,
      body: { content: `Policy ${tag}`, isAnnouncement: true, acknowledgement: { required: true } },
    }),
    201,
    'must-read',
  );
  expectStatus(await api('POST', `/posts/${mustRead.id}/acknowledge`, { token: s.token }), 200, 'acknowledge');
  await waitFor(async () => {
    const [state, notice] = await Promise.all([
      MustRead.get({ postId: mustRead.id }, { consistent: true }),
      AnnouncementNotice.get({ postId: mustRead.id }, { consistent: true }),
    ]);
    return state?.doneAt && notice?.doneAt ? true : undefined;
  }, 30_000);

  // O1 acts on S's post, so S is notified (reaction, comment) and S's poll has a vote by another.
  expectStatus(
    await api('POST', `/posts/${imagePost.id}/upvote`, { token: other1.token, body: { reaction: 'celebrate' } }),
    200,
    'O1 reacts',
  );
  const commentOnSubjectPost = expectStatus(
    await api('POST', `/posts/${imagePost.id}/comments`, { token: other1.token, body: { content: `Nice ${tag}` } }),
    201,
    'O1 comments',
  );
  expectStatus(
    await api('POST', `/posts/${pollPost.id}/poll/vote`, {
      token: other1.token,
      body: { optionId: pollPost.poll.options[1].id },
    }),
    200,
    'O1 votes',
  );

  // Reach (docs/reach.md): S saw O1's post that mentions them and opted out of read receipts; O1, a
  // bystander, saw S's post (their mark stays when S is erased).
  expectStatus(await api('POST', '/posts/seen', { token: s.token, body: { postIds: [mentionPost.id] } }), 204, 'S saw');
  expectStatus(
    await api('PUT', '/users/me/read-receipts', { token: s.token, body: { optedOut: true } }),
    200,
    'S opts out',
  );
  expectStatus(
    await api('POST', '/posts/seen', { token: other1.token, body: { postIds: [imagePost.id] } }),
    204,
    'O1 saw',
  );

  // Follows both ways.
  expectStatus(await api('PUT', `/people/${other1.id}/follow`, { token: s.token }), 204, 'S follows O1');
  expectStatus(await api('PUT', `/people/${s.id}/follow`, { token: other1.token }), 204, 'O1 follows S');

  // Birthday wishes: O1 to S, S to O2 (both born today).
  expectStatus(
    await api('POST', `/birthdays/${s.id}/wishes`, { token: other1.token, body: { message: `Happy birthday ${tag}` } }),
    204,
    'wish to S',
  );
  expectStatus(
    await api('POST', `/birthdays/${other2.id}/wishes`, {
      token: s.token,
      body: { message: `Many happy returns ${tag}` },
    }),
    204,
    'wish by S',
  );
  const wishes = expectStatus(await api('GET', '/birthdays/me/wishes', { token: s.token }), 200, 'S wishes') as any[];
  const wishToSubject = wishes.find((w) => w.author?.id === other1.id);
  if (!wishToSubject) throw new Error(`the wish to S is not listed: ${JSON.stringify(wishes)}`);
  const wishBySubject = (
    expectStatus(await api('GET', '/birthdays/me/wishes', { token: other2.token }), 200, 'O2 wishes') as any[]
  ).find((w) => w.author?.id === s.id);
  if (!wishBySubject) throw new Error('the wish by S is not listed');

  // Attendance, leave (S's own request to O2; O1's request to S, approved by S), presence, push.
  const attendanceDate = expectStatus(await api('POST', '/attendance/check-in', { token: s.token }), 201, 'check-in')
    .date as string;
  const leaveRequest = await requestLeave(s.token, other2.id, 40, `S trip ${tag}`, 'S leave');
  const decided = await requestLeave(other1.token, s.id, 50, `O1 trip ${tag}`, 'O1 leave');
  expectStatus(
    await api('PATCH', `/leave/requests/${decided.id}/process`, {
      token: s.token,
      body: { status: 'APPROVED', comment: `Approved by S ${tag}` },
    }),
    200,
    'S decides',
  );
  const presenceConnectionId = `conn-${tag}`;
  expectStatus(
    await api('POST', '/presence/heartbeat', {
      token: s.token,
      body: { connectionId: presenceConnectionId, active: true },
    }),
    204,
    'heartbeat',
  );
  const pushToken = `tok-${tag}-${uniq()}`;
  expectStatus(
    await api('POST', '/push/tokens', { token: secondToken, body: { token: pushToken, platform: 'android' } }),
    204,
    'push',
  );

  // The mention reaches S through the feed fan-out, in the background.
  await waitFor(async () => {
    const list = expectStatus(
      await api('GET', '/notifications?limit=50', { token: s.token }),
      200,
      'S notifications',
    ) as any[];
    return list.some((n) => n.kind === 'mention' && n.postId === mentionPost.id) ? true : undefined;
  });

  return {
    subject: { ...s, dateOfBirth, avatarTag: avatarOwnerTag(s.id), tokens: [s.token, secondToken] },
    other1,
    other2,
    ids: {
      teamId: team.id,
      imagePostId: imagePost.id,
      imagePath,
      pollPostId: pollPost.id,
      sharePostId: share.id,
      avatarPath,
      otherPostId: otherPost.id,
      otherPollOptionId,
      mentionPostId: mentionPost.id,
      recognitionPostId: recognitionPost.id,
      commentId: comment.id,
      replyId: reply.id,
      likedCommentId: likedComment.id,
      commentOnSubjectPostId: commentOnSubjectPost.id,
      wishToSubjectId: wishToSubject.id,
      wishBySubjectId: wishBySubject.id,
      leaveRequestId: leaveRequest.id,
      decidedLeaveRequestId: decided.id,
      attendanceDate,
      presenceConnectionId,
      pushToken,
      mustReadPostId: mustRead.id,
    },
  };
}
