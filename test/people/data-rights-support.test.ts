import { gzipSync } from 'node:zlib';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../shared/db/table.ts';
import { bucketName, s3 } from '../../shared/storage/client.ts';
import { waitFor } from '../feed/helpers.ts';
import { uniq } from '../support/api.ts';
import { checkCounters, itemsAbout, worldOf } from '../support/counters.ts';
import { type PersonOfEveryKind, seedPersonOfEveryKind } from '../support/person-seed.ts';
import { findTraces, type Trace } from '../support/person-traces.ts';
import { readRoutesWithout5xx } from '../support/read-routes.ts';
import { scanTable, storedObjects } from '../support/stored-data.ts';

/**
 * The harness of the data-rights test (issue 28) proven on what exists: a person seeded with data of
 * every kind is found where their data is kept, the counters hold, and every read route answers.
 */
describe('the data-rights harness', () => {
  let seeded: PersonOfEveryKind;
  let items: Item[];
  let traces: Trace[];

  beforeAll(async () => {
    seeded = await seedPersonOfEveryKind();
    items = await scanTable();
    const s = seeded.subject;
    traces = (await findTraces([s.id, s.email, s.name, s.dateOfBirth], { items })).traces;
  }, 120_000);

  /** The entities (and notification content, bucket paths) where a needle was found. */
  const placesOf = (needle: string) =>
    new Set(
      traces.filter((t) => t.needle === needle).map((t) => (t.where.includes(' ') ? t.where.split(' ')[0] : 'object')),
    );

  it("finds the subject's id in every kind of their data", () => {
    const places = placesOf(seeded.subject.id);
    for (const entity of [
      'User',
      'Credentials',
      'Session',
      'TeamMember',
      'Post',
      'PostReaction',
      'PollVote',
      'Comment',
      'CommentVote',
      'Bookmark',
      'Follow',
      'BirthdayWish',
      'WishCounter',
      'AttendanceRecord',
      'LeaveRequest',
      'Presence',
      'PresenceConnection',
      'PushToken',
      'Notification',
      'NotificationCounter',
    ])
      expect(places, entity).toContain(entity);
  });

  it('opens sealed notifications: those naming the subject as actor and those mentioning them', () => {
    const { subject, other1 } = seeded;
    const sealed = traces.filter((t) => t.needle === subject.id && t.path.startsWith('.sealed→'));
    // S's reaction, comment and reply on O1's post are O1's notifications naming S as actor.
    expect(sealed.some((t) => t.where.includes(`NOTIF#${other1.id}`) && t.path === '.sealed→.actorId')).toBe(true);
    // The wish S sent O2 is in O2's notifications, with S as actor.
    expect(sealed.some((t) => t.where.includes(`NOTIF#${seeded.other2.id}`))).toBe(true);
    // Nothing sealed stays unopened.
    expect(traces.filter((t) => t.path.includes('does not open'))).toEqual([]);
  });

  it('finds the e-mail, name and date of birth where they are kept, the e-mail whatever its case', () => {
    const { subject } = seeded;
    expect([...placesOf(subject.email)]).toEqual(expect.arrayContaining(['User', 'EmailClaim']));
    expect([...placesOf(subject.name)]).toEqual(expect.arrayContaining(['User']));
    expect([...placesOf(subject.dateOfBirth)]).toEqual(expect.arrayContaining(['User']));
    // A needle in another case is found too (the e-mail claim's key is lower-cased).
    expect(traces.some((t) => t.needle === subject.email && t.where.startsWith('EmailClaim'))).toBe(true);
  });

  it("finds the subject's objects in the bucket by their owner tag, not by their id", async () => {
    const { subject, ids } = seeded;
    const tagged = (await findTraces([subject.avatarTag], { items: [] })).traces;
    expect(tagged.map((t) => t.where)).toContain(ids.avatarPath.replace('/api/v1/files/', ''));
    expect(traces.filter((t) => t.where.startsWith('avatars/') && t.needle === subject.id)).toEqual([]);
    // Every object is listed: the avatar, and the post image's original and rendition (keyed by upload id).
    const upload = ids.imagePath.replace(/^.*\/files\/posts\//, '').replace(/\.\w+$/, '');
    const keys = (await storedObjects()).objects.map((o) => o.key);
    expect(keys).toContain(ids.avatarPath.replace('/api/v1/files/', ''));
    expect(keys.filter((k) => k.startsWith(`posts/${upload}/`)).length).toBeGreaterThanOrEqual(2);
  });

  it("finds a needle in an object's key, user metadata and body", async () => {
    const { id, email } = seeded.subject;
    const Key = `probes/${id}.txt`;
    await s3().send(
      new PutObjectCommand({
        Bucket: bucketName(),
        Key,
        Body: `written for ${email.toUpperCase()}`,
        Metadata: { owner: id },
      }),
    );
    try {
      const found = (await findTraces([id, email], { items: [] })).traces.filter((t) => t.where.startsWith(Key));
      expect(found.map((t) => `${t.needle === id ? 'id' : 'email'} ${t.path}`).sort()).toEqual([
        'email body',
        'id key',
        'id metadata.owner',
      ]);
    } finally {
      await s3().send(new DeleteObjectCommand({ Bucket: bucketName(), Key }));
    }
  });

  it('finds a needle inside a gzipped object (a whole list document), and the subject in the roster', async () => {
    const { id, email, name } = seeded.subject;
    const Key = `probes/${uniq()}.json.gz`;
    await s3().send(
      new PutObjectCommand({
        Bucket: bucketName(),
        Key,
        Body: gzipSync(JSON.stringify({ rows: { [id]: [1, name, email] } })),
        ContentEncoding: 'gzip',
      }),
    );
    try {
      const found = (await findTraces([id, email, name], { items: [] })).traces.filter((t) => t.where.startsWith(Key));
      expect(found.map((t) => t.path)).toEqual(['body', 'body', 'body']);
    } finally {
      await s3().send(new DeleteObjectCommand({ Bucket: bucketName(), Key }));
    }
    // The roster document (documents/roster.json.gz) holds them once it is folded: found there too.
    await waitFor(async () =>
      (await findTraces([email], { items: [] })).traces.some((t) => t.where.startsWith('documents/roster.json.gz'))
        ? true
        : undefined,
    );
  });

  it('finds nothing of a needle stored nowhere', async () => {
    const absent = `never-stored-${seeded.subject.id.split('').reverse().join('')}`;
    expect((await findTraces([absent], { items })).traces).toEqual([]);
  });

  // The seeded world's counters: other test files seed their own in bulk in the same table.
  it('keeps every counter equal to what it counts', async () => {
    expect(await checkCounters({ within: itemsAbout(worldOf(seeded), [seeded.ids.attendanceDate]) })).toEqual([]);
  });

  it('reports a counter that does not match', async () => {
    const { ids, subject } = seeded;
    const changed = new Map<Item, Item>();
    const change = (found: Item | undefined, fields: Item) => found && changed.set(found, { ...found, ...fields });
    const stats = items.find((i) => i.entity === 'PostStats' && i.postId === ids.otherPostId);
    change(stats, { reactionTotal: (stats?.reactionTotal ?? 0) + 1 });
    change(
      items.find((i) => i.entity === 'Comment' && i.id === ids.likedCommentId),
      { replyCount: 0 },
    );
    // The subject deactivated in the copy: their manager's reportCount and their team's memberCount no longer hold.
    change(
      items.find((i) => i.entity === 'User' && i.id === subject.id),
      { status: 'deactivated' },
    );
    expect(changed.size).toBe(3);
    const world = itemsAbout(worldOf(seeded), [seeded.ids.attendanceDate]);
    const problems = await checkCounters({ items: world(items.map((i) => changed.get(i) ?? i)) });
    const expected = [
      `PostStats ${ids.otherPostId} reactionTotal`,
      `Comment ${ids.likedCommentId} replyCount`,
      `User ${seeded.other2.id} reportCount`,
      `Team ${ids.teamId} memberCount`,
    ];
    for (const what of expected)
      expect(
        problems.some((p) => p.startsWith(`${what}:`)),
        what,
      ).toBe(true);
    // The subject's facets (their title) lose their only holder as well; nothing else is reported.
    expect(problems.filter((p) => !expected.some((what) => p.startsWith(`${what}:`)))).toEqual([
      expect.stringMatching(/^DirectoryFacet FACETS\|title#subject of .*: stored 1, counted 0$/),
    ]);
  });

  it('answers every read route without a 5xx', async () => {
    // The subject is a super admin: their session reaches the admin routes too.
    const { called, failures, unfilled } = await readRoutesWithout5xx(
      { subject: seeded.subject.token },
      {
        items,
        // The first read of today's birthdays claims the announcements of S's and O2's birthdays, which
        // would notify every active member of the table: other test files' people, counting theirs.
        skip: (path) => path.endsWith('/birthdays/today'),
      },
    );
    expect(failures).toEqual([]);
    // Only routes of what the seed makes none of (grievances, events, meetings, the docs' assets, data
    // exports, erasures and surveys) are left out.
    expect(
      unfilled.filter(
        (path) => !/\{(grievanceId|replyId|eventId|meetingId|asset|exportId|erasureId|surveyId)\}/.test(path),
      ),
    ).toEqual([]);
    expect(called).toBeGreaterThan(unfilled.length);
    // Every read function starts cold in a runtime that has not served it yet, as in the upgrade test's sweep.
  }, 300_000);
});
