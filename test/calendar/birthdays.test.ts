import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  type Audience,
  activeMembers,
  announceBirthdays,
  announcementFanOut,
  birthdayPreview,
  claimAnnouncements,
} from '../../shared/calendar/birthdays/announce.ts';
import { sweepBirthdays, todaysBirthdays } from '../../shared/calendar/birthdays/today.ts';
import { loveWish, myWishes, replyToWish, sendWish } from '../../shared/calendar/birthdays/wishes.ts';
import { BirthdayAnnouncement, BirthdayDay } from '../../shared/calendar/entities.ts';
import { getItem, write } from '../../shared/db/table.ts';
import { Notification } from '../../shared/notifications/entities.ts';
import { listNotifications, markRead, unreadCount } from '../../shared/notifications/notifications.ts';
import { getUser, type UserItem } from '../../shared/people/users.ts';
import { companyDate } from '../../shared/util/time.ts';
import { api, newMember, uniq } from '../support/api.ts';
import { refusalStatus } from '../support/refusal.ts';

/*
 * These tests run on made-up days (a 15th, months away from today) with a made-up audience: a real
 * birthday notification goes to every active member, which would reach other test files' people. The
 * running runtime's consumer leaves them alone (not today); the tests play its part with the records.
 */
const month = String(((new Date().getUTCMonth() + 6) % 12) + 1).padStart(2, '0');
const DAY = `2031-${month}-15`;
const NOW = new Date(`${DAY}T12:00:00Z`);
const DOB = `1990-${month}-15`;

/** An audience of exactly these people, paged by position. */
const audienceOf = (ids: string[]): Audience => ({
  async page({ cursor, limit }) {
    const start = Number(cursor ?? 0);
    return {
      ids: ids.slice(start, start + limit),
      nextCursor: start + limit < ids.length ? String(start + limit) : null,
    };
  },
});

async function birthdayPerson(dateOfBirth = DOB, name?: string): Promise<UserItem> {
  const m = await newMember(name ? { name } : {});
  const res = await api('PATCH', '/users/me/profile', { token: m.token, body: { dateOfBirth } });
  expect(res.status).toBe(200);
  return (await getUser(m.id, true))!;
}

/** A DynamoDB stream record of an item, as the fan-out consumer receives it. */
const streamRecord = (eventName: 'INSERT' | 'MODIFY', item: object, old?: object) =>
  ({
    eventName,
    dynamodb: {
      NewImage: marshall(item, { removeUndefinedValues: true }),
      ...(old ? { OldImage: marshall(old, { removeUndefinedValues: true }) } : {}),
    },
  }) as unknown as DynamoDBRecord;

/** The day's claims of these people (each must exist). */
const claimsOf = async (date: string, people: UserItem[]) =>
  (
    await BirthdayAnnouncement.getMany(
      people.map((p) => ({ date, userId: p.id })),
      { consistent: true },
    )
  ).map((c) => {
    if (!c) throw new Error('no claim');
    return c;
  });

/** A person's birthday notifications. */
const birthdayNotes = async (recipientId: string) =>
  (await listNotifications(recipientId, 50)).filter((n) => n.kind === 'birthday');

/** What the day's notification to `recipientId` says: the birthday people but them, by name. */
const expectedPreview = (people: UserItem[], recipientId: string) =>
  birthdayPreview(
    people.filter((p) => p.id !== recipientId).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  ).preview;

describe('the birthday notification: one per person per day', () => {
  it('is only claimed by reads and sweeps, then the consumer sends one notification a person naming the day', async () => {
    const people = await Promise.all(
      ['Dora', 'Ana', 'Eve', 'Bea', 'Cleo'].map((n) => birthdayPerson(DOB, `${n} ${uniq()}`)),
    );
    const sorted = [...people].sort((a, b) => a.name.localeCompare(b.name));
    // Someone whose birthday turns out to be today later that day (their date of birth corrected).
    const sixthMember = await newMember({ name: `Aaron ${uniq()}` });
    const fake = Array.from({ length: 59 }, (_, i) => `recipient-${uniq()}-${i}`); // two pages with the six
    const audience = audienceOf([...fake, ...people.map((p) => p.id), sixthMember.id]);
    const viewer = (await getUser((await newMember()).id))!;
    await Promise.all([
      ...Array.from({ length: 4 }, () => todaysBirthdays(viewer, NOW)),
      ...Array.from({ length: 3 }, () => sweepBirthdays(NOW)),
    ]);
    // The requests recorded no notification: only the claims (one per birthday person), which the consumer picks up.
    const claims = await claimsOf(DAY, people);
    expect(claims.every((c) => c && !c.doneAt)).toBe(true);
    expect(await birthdayNotes(fake[0])).toHaveLength(0);
    expect(await BirthdayDay.get({ date: DAY }, { consistent: true })).toBeUndefined();
    // The claims' records, a batch delivered twice at once: the day is created with the five, the claims done.
    const records = claims.map((c) => streamRecord('INSERT', c));
    await Promise.all([
      announcementFanOut(records, { audience, now: NOW }),
      announcementFanOut(records, { audience, now: NOW }),
    ]);
    const day = (await BirthdayDay.get({ date: DAY }, { consistent: true }))!;
    expect(new Set(day.people)).toEqual(new Set(people.map((p) => p.id)));
    expect(day).toMatchObject({ round: 1, step: 0 });
    expect((await claimsOf(DAY, people)).every((c) => c.doneAt)).toBe(true);
    // The day's record twice at once, beside a progress record of it: one pass, each page once.
    const dayInsert = streamRecord('INSERT', day);
    await Promise.all([
      announcementFanOut([dayInsert, streamRecord('MODIFY', { ...day, step: 1 }, day)], { audience, now: NOW }),
      announcementFanOut([dayInsert], { audience, now: NOW }),
    ]);
    for (const id of [fake[0], fake[48], fake[49], fake[58], sixthMember.id, ...people.map((p) => p.id)]) {
      const notes = await birthdayNotes(id);
      expect(notes, id).toHaveLength(1);
      expect(notes[0]).toMatchObject({ id: day.noticeId, preview: expectedPreview(people, id), readAt: null });
      expect(await unreadCount(id)).toBe(1);
    }
    expect((await birthdayNotes(fake[0]))[0].actor?.id).toBe(sorted[0].id);
    expect((await birthdayNotes(sorted[0].id))[0].actor?.id).toBe(sorted[1].id); // names only the others
    expect(expectedPreview(people, fake[0])).toBe(
      `Birthdays today: ${sorted[0].name}, ${sorted[1].name}, ${sorted[2].name} and 2 more. Send them your wishes!`,
    );
    expect(await getItem(BirthdayDay.key({ date: DAY }), true)).toMatchObject({
      step: 2,
      sent: 65,
      doneAt: expect.any(String),
    });
    // Another read or sweep sends nothing more.
    await sweepBirthdays(NOW);
    await todaysBirthdays(viewer, NOW);
    expect(await birthdayNotes(fake[0])).toHaveLength(1);

    // fake[0] reads theirs, fake[1] marks every notification read, fake[2] leaves it unread.
    await markRead(fake[0], day.noticeId);
    await markRead(fake[1], undefined);
    expect([await unreadCount(fake[0]), await unreadCount(fake[1]), await unreadCount(fake[2])]).toEqual([0, 0, 1]);

    // A sixth birthday person later that day: the same notification, revised, unread again, counted once.
    const patched = await api('PATCH', '/users/me/profile', { token: sixthMember.token, body: { dateOfBirth: DOB } });
    expect(patched.status).toBe(200);
    const sixth = (await getUser(sixthMember.id, true))!;
    await todaysBirthdays(viewer, NOW);
    const [claim6] = await claimsOf(DAY, [sixth]);
    await announcementFanOut([streamRecord('INSERT', claim6)], { audience, now: NOW });
    const round2 = (await BirthdayDay.get({ date: DAY }, { consistent: true }))!;
    expect(round2).toMatchObject({ round: 2, cursor: null, noticeId: day.noticeId });
    expect(round2.doneAt).toBeUndefined();
    // The previous round's record comes late: it does nothing (its claim is not the round's).
    await announcementFanOut([dayInsert], { audience, now: NOW });
    expect((await birthdayNotes(fake[0]))[0].preview).toBe(expectedPreview(people, fake[0]));
    await announcementFanOut([streamRecord('MODIFY', round2, { ...day, doneAt: NOW.toISOString() })], {
      audience,
      now: NOW,
    });
    const six = [...people, sixth];
    for (const id of [fake[0], fake[1], fake[2], fake[58]]) {
      const notes = await birthdayNotes(id);
      expect(notes, id).toHaveLength(1);
      expect(notes[0]).toMatchObject({ id: day.noticeId, preview: expectedPreview(six, id), readAt: null });
      expect(notes[0].actor?.id).toBe(sixth.id); // "Aaron" sorts first
      expect(await unreadCount(id), id).toBe(1);
    }
    expect(expectedPreview(six, fake[0])).toContain('and 3 more');
    // The sixth's own notification already named the other five: left as it was.
    expect(await birthdayNotes(sixth.id)).toEqual([
      expect.objectContaining({ id: day.noticeId, preview: expectedPreview(people, sixth.id) }),
    ]);
    expect(
      (await getItem(Notification.key({ recipientId: sixth.id, id: day.noticeId }), true))?.revisedAt,
    ).toBeUndefined();

    // A claim of another day than today is not sent (a late record must not announce yesterday's).
    const later = new Date(NOW.getTime() + 2 * 24 * 3600 * 1000);
    await announcementFanOut([streamRecord('INSERT', { ...claim6, date: companyDate(later), doneAt: undefined })], {
      audience,
      now: new Date(later.getTime() + 2 * 24 * 3600 * 1000),
    });
    expect(await BirthdayDay.get({ date: companyDate(later) }, { consistent: true })).toBeUndefined();
    const listed = await todaysBirthdays(viewer, NOW);
    expect(listed.find((x) => x.id === sorted[0].id)).toEqual({
      id: sorted[0].id,
      name: sorted[0].name,
      image: null,
      title: '',
      wished: false,
      wishCount: 0,
    });
  });

  it("resumes a day's pass whose sender stopped half way, without repeating a page", async () => {
    const date = `2032-${month}-15`;
    const [b, c] = await Promise.all([birthdayPerson(), birthdayPerson()]);
    const recipients = Array.from({ length: 70 }, (_, i) => `recipient-${uniq()}-${i}`);
    const healthy = audienceOf([...recipients, b.id]);
    let failSecondPage = true;
    const flaky: Audience = {
      async page(q) {
        if (q.cursor !== null && failSecondPage) throw new Error('the sender died');
        return healthy.page(q);
      },
    };
    await expect(announceBirthdays([b], date, flaky)).rejects.toThrow('the sender died');
    expect(await birthdayNotes(recipients[0])).toHaveLength(1);
    expect(await birthdayNotes(recipients[69])).toHaveLength(0);
    // The only birthday person of the day is told of nobody.
    expect(await birthdayNotes(b.id)).toHaveLength(0);
    // Another reader right away leaves a live pass alone.
    failSecondPage = false;
    const live = (await BirthdayDay.get({ date }, { consistent: true }))!;
    await claimAnnouncements([b], date);
    expect((await BirthdayDay.get({ date }, { consistent: true }))!.claimId).toBe(live.claimId);
    // Once the pass is stale, the next reader takes it over; its record goes on from the recorded page.
    await write(
      BirthdayDay.update(
        { date },
        {
          UpdateExpression: 'SET heartbeatAt = :old',
          ExpressionAttributeValues: { ':old': '2000-01-01T00:00:00.000Z' },
        },
      ),
    );
    await Promise.all([claimAnnouncements([b], date), claimAnnouncements([b], date)]);
    const taken = (await BirthdayDay.get({ date }, { consistent: true }))!;
    expect(taken.claimId).not.toBe(live.claimId);
    const now = new Date(`${date}T12:00:00Z`);
    await Promise.all([
      announcementFanOut([streamRecord('MODIFY', taken, live)], { audience: healthy, now }),
      announcementFanOut([streamRecord('MODIFY', taken, live)], { audience: healthy, now }),
    ]);
    for (const id of [recipients[0], recipients[48], recipients[49], recipients[69]]) {
      expect(await birthdayNotes(id), id).toHaveLength(1);
      expect(await unreadCount(id)).toBe(1);
    }
    expect((await BirthdayDay.get({ date }, { consistent: true }))!).toMatchObject({ step: 2, sent: 70 });
    // A second birthday person that day: the first one now hears of them, in the same one notification.
    await announceBirthdays([c], date, healthy);
    expect(await birthdayNotes(b.id)).toEqual([expect.objectContaining({ preview: expectedPreview([b, c], b.id) })]);
    expect(await birthdayNotes(recipients[0])).toEqual([
      expect.objectContaining({ preview: expectedPreview([b, c], recipients[0]) }),
    ]);
  });

  it("names the first three of the day's birthday people, then how many more, each name where an erasure finds it", () => {
    const people = ['Ana', 'Bo', 'Cy', 'Di', 'Ed'].map((name, i) => ({ id: `p${i}`, name }));
    const cases: [number, string][] = [
      [1, "It's Ana's birthday today. Send them your wishes!"],
      [2, 'Birthdays today: Ana and Bo. Send them your wishes!'],
      [3, 'Birthdays today: Ana, Bo and Cy. Send them your wishes!'],
      [4, 'Birthdays today: Ana, Bo, Cy and 1 more. Send them your wishes!'],
      [5, 'Birthdays today: Ana, Bo, Cy and 2 more. Send them your wishes!'],
    ];
    for (const [n, text] of cases) {
      const { preview, names } = birthdayPreview(people.slice(0, n));
      expect(preview).toBe(text);
      expect(names.map((s) => [s.id, preview.slice(s.at, s.at + s.length)])).toEqual(
        people.slice(0, Math.min(n, 3)).map((p) => [p.id, p.name]),
      );
    }
  });

  it('reaches active members who joined by the time it went out, never later ones', async () => {
    const b = await birthdayPerson();
    const early = await newMember();
    const cutoff = new Date().toISOString();
    const late = await newMember();
    // Read-only: pages through the real audience (the members index) as a sender would.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await activeMembers.page({ cutoff, cursor, limit: 49 });
      seen.push(...page.ids);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toContain(early.id);
    expect(seen).toContain(b.id); // told of the day's other birthday people
    expect(seen).not.toContain(late.id);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('celebrates 29 February birthdays on 28 February of common years', async () => {
    const leapling = await birthdayPerson('1992-02-29');
    const viewer = (await getUser((await newMember()).id))!;
    const on = async (iso: string) => (await todaysBirthdays(viewer, new Date(iso))).some((x) => x.id === leapling.id);
    expect(await on('2027-02-28T12:00:00Z')).toBe(true);
    expect(await on('2027-03-01T12:00:00Z')).toBe(false);
    expect(await on('2028-02-28T12:00:00Z')).toBe(false);
    expect(await on('2028-02-29T12:00:00Z')).toBe(true);
  });
});

describe('wishes', () => {
  it('keeps one wish per author per birthday, notifying once, however the requests race', async () => {
    const b = await birthdayPerson();
    const author = (await getUser((await newMember()).id))!;
    await Promise.all(Array.from({ length: 10 }, (_, i) => sendWish(author, b.id, `Happy birthday #${i}`, NOW)));
    const wishes = await myWishes(b.id, NOW);
    expect(wishes).toHaveLength(1);
    expect(wishes[0].author.id).toBe(author.id);
    expect((await listNotifications(b.id, 50)).filter((n) => n.kind === 'birthday_wish')).toHaveLength(1);
    const listed = await todaysBirthdays(b, NOW);
    expect(listed.find((x) => x.id === b.id)?.wishCount).toBe(1);
    expect((await todaysBirthdays(author, NOW)).find((x) => x.id === b.id)).toMatchObject({
      wished: true,
      wishCount: 0,
    });
    expect(await refusalStatus(sendWish(author, b.id, 'Too late', new Date(NOW.getTime() + 24 * 3600_000)))).toBe(404);
    expect(await refusalStatus(sendWish(b, b.id, 'Me', NOW))).toBe(400);
  });

  it('tells the writer once about the first heart and once, with its words, about the first reply', async () => {
    const b = await birthdayPerson();
    const author = (await getUser((await newMember()).id))!;
    await sendWish(author, b.id, 'Have a great one', NOW);
    const [wish] = await myWishes(b.id, NOW);
    await Promise.all(Array.from({ length: 8 }, (_, i) => loveWish(b, wish.id, i % 2 === 0, NOW)));
    await loveWish(b, wish.id, true, NOW);
    await loveWish(b, wish.id, false, NOW);
    await loveWish(b, wish.id, true, NOW);
    await replyToWish(b, wish.id, 'Thanks a lot', NOW);
    await replyToWish(b, wish.id, 'Thanks a lot, really', NOW);
    const thanks = (await listNotifications(author.id, 50)).filter((n) => n.kind === 'birthday_thanks');
    expect(thanks).toHaveLength(2);
    expect(thanks.map((n) => n.actor?.id)).toEqual([b.id, b.id]);
    expect(thanks[0].preview).toContain('Thanks a lot');
    expect(thanks[0].preview).not.toContain('really');
    let [after] = await myWishes(b.id, NOW);
    expect(after).toMatchObject({ loved: true, reply: 'Thanks a lot, really', repliedAt: expect.any(String) });
    await replyToWish(b, wish.id, '', NOW);
    [after] = await myWishes(b.id, NOW);
    expect(after).toMatchObject({ reply: null, repliedAt: null });
    expect(await refusalStatus(loveWish(author, wish.id, true, NOW))).toBe(404);
  });
});
