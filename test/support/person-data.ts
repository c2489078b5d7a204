import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { routes } from '../../shared/api/routes/index.ts';
import { WishCounter } from '../../shared/calendar/entities.ts';
import { companyDate } from '../../shared/calendar/time.ts';
import { tableName } from '../../shared/db/client.ts';
import type { Item } from '../../shared/db/table.ts';
import { REACTIONS } from '../../shared/feed/model.ts';
import { PresentCounter } from '../../shared/hr/entities.ts';
import { Notification } from '../../shared/notifications/entities.ts';
import { notificationContent } from '../../shared/notifications/notifications.ts';
import { avatarOwnerTag } from '../../shared/people/avatars.ts';
import { POSTS_SORT_ATTRIBUTE } from '../../shared/people/derived-from-person.ts';
import { DirectoryFacet, type FacetKind } from '../../shared/people/entities.ts';
import { isListed, postsAttribute } from '../../shared/people/listing.ts';
import { bucketName, s3 } from '../../shared/storage/client.ts';
import { image, waitFor } from '../feed/helpers.ts';
import { expectStatus, newTeam, type Person, person, upload } from '../people/helpers.ts';
import { api, baseUrl, PASSWORD, signIn, uniq } from './api.ts';

/**
 * The harness of the people's data rights (issue 28): a person with data of every kind, made through
 * the public API; a search of the whole table and every stored object for what identifies them; the
 * stored counters checked against what they count; and every read route of the route table called with
 * ids taken from the stored items. The upgrade test (test/upgrade) uses the last three as well.
 */

// ---------------------------------------------------------------------------------------------------
// Seeding

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
  };
}

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A date of birth whose day and month are today's in the company's timezone (1992: a leap year, for 29 February). */
const bornToday = (year: number) => `${year}${companyDate().slice(4)}`;

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
  const pollPost = expectStatus(
    await api('POST', '/posts', {
      token: s.token,
      body: { content: `S asks ${tag}`, poll: { question: 'Tea or coffee?', options: ['Tea', 'Coffee'], closesAt } },
    }),
    201,
    'S poll',
  );
  const otherPost = expectStatus(
    await api('POST', '/posts', {
      token: other1.token,
      body: { content: `O1 asks ${tag}`, poll: { question: 'Lunch?', options: ['Early', 'Late'], closesAt } },
    }),
    201,
    'O1 post',
  );
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
  const leaveRequest = expectStatus(
    await api('POST', '/leave/requests', {
      token: s.token,
      body: {
        leaveType: 'Annual leave',
        fromDate: dayFromNow(40),
        toDate: dayFromNow(41),
        reason: `S trip ${tag}`,
        selectedManagerId: other2.id,
      },
    }),
    201,
    'S leave',
  );
  const decided = expectStatus(
    await api('POST', '/leave/requests', {
      token: other1.token,
      body: {
        leaveType: 'Annual leave',
        fromDate: dayFromNow(50),
        toDate: dayFromNow(51),
        reason: `O1 trip ${tag}`,
        selectedManagerId: s.id,
      },
    }),
    201,
    'O1 leave',
  );
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
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The stored data

/** Every item of the table (TABLE_NAME at the time of the call), unmarshalled, read consistently. */
export async function scanTable(): Promise<Item[]> {
  const client = new DynamoDBClient({ region: process.env.AWS_REGION });
  const items: Item[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []).map((i) => unmarshall(i)));
    start = page.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return items;
}

/** One stored object version (`versionId` undefined where the store keeps no versions). */
export interface StoredObject {
  key: string;
  versionId?: string;
}

/**
 * Every object version in the bucket (BUCKET_NAME at the time of the call), and whether the store
 * listed versions at all. The local S3 emulator (s3rver, infra/local/s3.ts) keeps no versions: it
 * refuses `ListObjectVersions` (405 MethodNotAllowed). So when the version listing is refused, or does
 * not cover the current objects, the current objects are listed instead (`versioned: false`): there,
 * every object has exactly one version, and that listing is complete. Against real S3 (a versioned
 * bucket, infra/stacks/data-stack.ts) the versions are listed, delete markers included.
 */
export async function storedObjects(): Promise<{ objects: StoredObject[]; versioned: boolean }> {
  const Bucket = bucketName();
  const versions: StoredObject[] = [];
  try {
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    for (;;) {
      const page = await s3().send(
        new ListObjectVersionsCommand({ Bucket, KeyMarker: keyMarker, VersionIdMarker: versionMarker }),
      );
      for (const v of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])])
        if (v.Key) versions.push({ key: v.Key, versionId: v.VersionId });
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      versionMarker = page.NextVersionIdMarker;
    }
  } catch {
    versions.length = 0;
  }
  const current: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) current.push({ key: o.Key });
    token = page.NextContinuationToken;
  } while (token);
  // Versions listed must cover every current object; otherwise the store does not keep versions.
  const listed = new Set(versions.map((v) => v.key));
  if (versions.length && current.every((o) => listed.has(o.key))) return { objects: versions, versioned: true };
  return { objects: current, versioned: false };
}

/** Where a needle was found: a table item's attribute, or an object's key, metadata or body. */
export interface Trace {
  needle: string;
  /** `table` items: `<entity> <pk> | <sk>`; `bucket` objects: `<key>` (with `@<versionId>` when versioned). */
  where: string;
  /** Inside it: an attribute path (`.content`, `.sealed→preview`, a map's key as `.{row_x}`), or `key`, `metadata.<name>`, `body`. */
  path: string;
}

/** The needles found in one text (case-insensitively: an e-mail's case is not its identity). */
const found = (text: string, needles: string[]) => {
  const lower = text.toLowerCase();
  return needles.filter((n) => lower.includes(n.toLowerCase()));
};

/** Every string of a value, with its path; a map's keys are strings of it too (`row_<userId>`). */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (typeof value === 'number' || typeof value === 'bigint') yield [path, String(value)];
  else if (value instanceof Uint8Array) yield [path, Buffer.from(value).toString('latin1')];
  else if (value instanceof Set || Array.isArray(value)) {
    let i = 0;
    for (const v of value) yield* strings(v, `${path}[${i++}]`);
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      yield [`${path}.{${k}}`, k];
      yield* strings(v, `${path}.${k}`);
    }
}

/**
 * Every place in the whole table and every stored object (version) where one of the needles occurs as
 * a substring, case-insensitively: item attributes and their names at any depth (items of the grievance
 * channel, stamped `anon`, included), each notification's sealed content opened (a notification to
 * somebody else naming the person as actor), object keys, user metadata and bodies.
 */
export async function findTraces(
  needles: string[],
  opts: { items?: Item[] } = {},
): Promise<{ traces: Trace[]; versioned: boolean }> {
  const wanted = needles.filter((n) => n.length > 0);
  const traces: Trace[] = [];
  for (const item of opts.items ?? (await scanTable())) {
    const where = `${item.entity} ${item.pk} | ${item.sk}`;
    for (const [path, text] of strings(item, ''))
      for (const needle of found(text, wanted)) traces.push({ needle, where, path });
    if (Notification.is(item) && typeof item.sealed === 'string') {
      const content = notificationContent(item);
      if (content === null) traces.push({ needle: '', where, path: '.sealed (does not open)' });
      else
        for (const [path, text] of strings(content, '.sealed→'))
          for (const needle of found(text, wanted)) traces.push({ needle, where, path });
    }
  }
  const { objects, versioned } = await storedObjects();
  const Bucket = bucketName();
  for (const o of objects) {
    const where = o.versionId ? `${o.key}@${o.versionId}` : o.key;
    for (const needle of found(o.key, wanted)) traces.push({ needle, where, path: 'key' });
    const got = await s3()
      .send(new GetObjectCommand({ Bucket, Key: o.key, VersionId: o.versionId }))
      .catch(() => undefined);
    // A delete marker has no body; a version listed a moment ago may have gone meanwhile.
    if (!got) continue;
    for (const [name, value] of Object.entries(got.Metadata ?? {}))
      for (const needle of found(`${name}=${value}`, wanted)) traces.push({ needle, where, path: `metadata.${name}` });
    const body = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    // Latin-1 keeps every byte (an ASCII needle in binary media); UTF-8 finds needles beyond ASCII.
    const texts = new Set([body.toString('latin1'), body.toString('utf8')]);
    const inBody = new Set([...texts].flatMap((t) => found(t, wanted)));
    for (const needle of inBody) traces.push({ needle, where, path: 'body' });
  }
  return { traces, versioned };
}

// ---------------------------------------------------------------------------------------------------
// Counters

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
 * - a person's unread notifications (NotificationCounter.unread: their notifications with no readAt);
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

  const notifications = of('Notification');
  const unread = countBy(
    notifications.filter((n) => !n.readAt),
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
  const shardCounts = new Map<string, unknown>();
  for (const shard of of('DirectoryShardPosts'))
    for (const [k, v] of Object.entries(shard)) if (k.startsWith(postsAttribute(''))) shardCounts.set(k, v);
  for (const u of of('User')) {
    const count = authored.get(u.id) ?? 0;
    expectEqual(`User ${u.id} postCount`, u.postCount, count);
    if (POSTS_SORT_ATTRIBUTE in u) expectEqual(`User ${u.id} ${POSTS_SORT_ATTRIBUTE}`, u[POSTS_SORT_ATTRIBUTE], count);
    if (shardCounts.has(postsAttribute(u.id)) || count)
      expectEqual(`DirectoryShardPosts ${postsAttribute(u.id)}`, shardCounts.get(postsAttribute(u.id)), count);
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

// ---------------------------------------------------------------------------------------------------
// Read routes

/** Candidate values of each path parameter, by its name (`{key}` by the collection it follows). */
export function idsByParameter(items: Item[], objectKeys: string[]): Map<string, string[]> {
  const of = (entity: string, field = 'id') =>
    [...new Set(items.filter((i) => i.entity === entity).map((i) => String(i[field])))].slice(0, 2);
  const keysUnder = (prefix: string) =>
    objectKeys
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length))
      .slice(0, 2);
  return new Map<string, string[]>([
    ['postId', of('Post')],
    ['commentId', of('Comment')],
    ['grievanceId', of('Grievance')],
    ['replyId', of('GrievanceReply')],
    ['eventId', of('CompanyEvent')],
    ['meetingId', of('Meeting')],
    ['teamId', of('Team')],
    ['userId', of('User')],
    ['requestId', of('LeaveRequest')],
    ['wishId', of('BirthdayWish')],
    ['exportId', of('DataExport')],
    ['erasureId', of('PersonErasure')],
    ['avatars/key', keysUnder('avatars/')],
    ['posts/key', keysUnder('posts/')],
  ]);
}

/** The route's path with each parameter filled, or null when a parameter has no known values. */
export function fill(path: string, ids: Map<string, string[]>): string[] | null {
  const parts = path.split('/');
  let paths = [''];
  for (let i = 1; i < parts.length; i++) {
    const m = /^\{(\w+)\+?\}$/.exec(parts[i]);
    if (!m) {
      paths = paths.map((p) => `${p}/${parts[i]}`);
      continue;
    }
    const values = ids.get(m[1]) ?? ids.get(`${parts[i - 1]}/${m[1]}`);
    if (!values?.length) return null;
    paths = paths.flatMap((p) => values.map((v) => `${p}/${encodeURIComponent(v)}`));
  }
  return paths;
}

/**
 * Calls every GET route of the route table (streams aside) with each session, its path parameters
 * filled from the stored items and object keys; answers the calls made, those that answered 5xx, and
 * the routes left out because a parameter had no stored value.
 * `skip` leaves out routes by their filled path (a read with effects on other tests' people).
 */
export async function readRoutesWithout5xx(
  tokens: Record<string, string>,
  opts: { baseUrl?: string; items?: Item[]; objectKeys?: string[]; skip?: (path: string) => boolean } = {},
): Promise<{ called: number; failures: string[]; unfilled: string[] }> {
  const base = opts.baseUrl ?? baseUrl();
  const items = opts.items ?? (await scanTable());
  const objectKeys = opts.objectKeys ?? (await storedObjects()).objects.map((o) => o.key);
  const ids = idsByParameter(items, objectKeys);
  const reads = routes.filter((r) => r.method === 'GET' && !r.streaming);
  const unfilled = reads.filter((r) => fill(r.path, ids) === null).map((r) => r.path);
  const calls = reads
    .flatMap((route) => fill(route.path, ids) ?? [])
    .filter((path) => !opts.skip?.(path))
    .flatMap((path) => Object.entries(tokens).map(([who, token]) => ({ who, token, path })));
  const failures: string[] = [];
  // A few at a time: each function's first call is a cold start.
  const queue = [...calls];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const res = await fetch(`${base}${c.path}`, { headers: { authorization: `Bearer ${c.token}` } });
        await res.arrayBuffer();
        if (res.status >= 500) failures.push(`${c.who} GET ${c.path}: ${res.status}`);
      }
    }),
  );
  return { called: calls.length, failures, unfilled };
}
