import { beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../shared/db/table.ts';
import { admin } from '../support/api.ts';
import {
  checkCounters,
  findTraces,
  type PersonOfEveryKind,
  readRoutesWithout5xx,
  scanTable,
  seedPersonOfEveryKind,
  storedObjects,
  type Trace,
} from '../support/person-data.ts';

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

  it('finds nothing of a needle stored nowhere', async () => {
    const absent = `never-stored-${seeded.subject.id.split('').reverse().join('')}`;
    expect((await findTraces([absent], { items })).traces).toEqual([]);
  });

  it('keeps every counter equal to what it counts', async () => {
    expect(await checkCounters({ items })).toEqual([]);
  });

  it('reports a counter that does not match', async () => {
    const stats = items.find((i) => i.entity === 'PostStats' && i.postId === seeded.ids.otherPostId)!;
    const comment = items.find((i) => i.entity === 'Comment' && i.id === seeded.ids.likedCommentId)!;
    const tampered = items.map((i) =>
      i === stats ? { ...i, reactionTotal: i.reactionTotal + 1 } : i === comment ? { ...i, replyCount: 0 } : i,
    );
    const problems = await checkCounters({ items: tampered });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toContain(`PostStats ${seeded.ids.otherPostId} reactionTotal`);
    expect(problems.join('\n')).toContain(`Comment ${seeded.ids.likedCommentId} replyCount`);
  });

  it('answers every read route without a 5xx', async () => {
    const a = await admin();
    const { called, failures } = await readRoutesWithout5xx(
      { admin: a.token, subject: seeded.subject.token },
      {
        items,
        // The first read of today's birthdays claims the announcements of S's and O2's birthdays, which
        // would notify every active member of the table: other test files' people, counting theirs.
        skip: (path) => path.endsWith('/birthdays/today'),
      },
    );
    expect(failures).toEqual([]);
    expect(called).toBeGreaterThan(100);
  }, 120_000);
});
