import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  type Audience,
  activeMembers,
  announceBirthdays,
  announcementFanOut,
} from '../../shared/calendar/birthdays/announce.ts';
import { sweepBirthdays, todaysBirthdays } from '../../shared/calendar/birthdays/today.ts';
import { loveWish, myWishes, replyToWish, sendWish } from '../../shared/calendar/birthdays/wishes.ts';
import { type AnnouncementItem, BirthdayAnnouncement } from '../../shared/calendar/entities.ts';
import { getItem, write } from '../../shared/db/table.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { getUser, type UserItem } from '../../shared/people/users.ts';
import { api, newMember, uniq } from '../support/api.ts';
import { refusalStatus } from '../support/refusal.ts';

/*
 * These tests run on a made-up day (a 15th, months away from today) with a made-up audience: a real
 * birthday announcement goes to every active member, which would reach other test files' people.
 */
const month = String(((new Date().getUTCMonth() + 6) % 12) + 1).padStart(2, '0');
const DAY = `2031-${month}-15`;
const NOW = new Date(`${DAY}T12:00:00Z`);
const DOB = `1990-${month}-15`;

/** An audience of exactly these people, paged by position. */
const audienceOf = (ids: string[]): Audience => ({
  async page({ excludeId, cursor, limit }) {
    const list = ids.filter((id) => id !== excludeId);
    const start = Number(cursor ?? 0);
    return {
      ids: list.slice(start, start + limit),
      nextCursor: start + limit < list.length ? String(start + limit) : null,
    };
  },
});

async function birthdayPerson(dateOfBirth = DOB): Promise<UserItem> {
  const m = await newMember();
  const res = await api('PATCH', '/users/me/profile', { token: m.token, body: { dateOfBirth } });
  expect(res.status).toBe(200);
  return (await getUser(m.id, true))!;
}

/** A DynamoDB stream record of a claim item, as the fan-out consumer receives it. */
const streamRecord = (eventName: 'INSERT' | 'MODIFY', item: AnnouncementItem, old?: AnnouncementItem) =>
  ({
    eventName,
    dynamodb: {
      Keys: marshall({ pk: item.pk, sk: item.sk }),
      NewImage: marshall(item, { removeUndefinedValues: true }),
      ...(old ? { OldImage: marshall(old, { removeUndefinedValues: true }) } : {}),
    },
  }) as unknown as DynamoDBRecord;

/** Birthday notifications a person received about one birthday person. */
const birthdayNotes = async (recipientId: string, aboutId: string) =>
  (await listNotifications(recipientId, 50)).filter((n) => n.kind === 'birthday' && n.actor?.id === aboutId);

describe('the birthday notification', () => {
  it('is only claimed by reads and sweeps (once, however they race), then sent once by the fan-out', async () => {
    const b = await birthdayPerson();
    const recipients = Array.from({ length: 60 }, (_, i) => `recipient-${uniq()}-${i}`); // two pages
    const audience = audienceOf([...recipients, b.id]);
    const viewer = (await getUser((await newMember()).id))!;
    await Promise.all([
      ...Array.from({ length: 4 }, () => todaysBirthdays(viewer, NOW)),
      ...Array.from({ length: 3 }, () => sweepBirthdays(NOW)),
    ]);
    // The requests recorded no notification: only the claim, which the fan-out consumer picks up.
    const claim = (await BirthdayAnnouncement.get({ date: DAY, userId: b.id }, { consistent: true }))!;
    expect(claim).toMatchObject({ step: 0, sent: 0 });
    expect(claim.doneAt).toBeUndefined();
    expect(await birthdayNotes(recipients[0], b.id)).toHaveLength(0);
    // Its stream record, delivered twice (a retried batch) beside a progress record of the same claim.
    const insert = streamRecord('INSERT', claim);
    const progress = streamRecord('MODIFY', { ...claim, step: 1 }, claim);
    await Promise.all([
      announcementFanOut([insert, progress], { audience, now: NOW }),
      announcementFanOut([insert], { audience, now: NOW }),
    ]);
    for (const id of [recipients[0], recipients[48], recipients[49], recipients[59]])
      expect(await birthdayNotes(id, b.id)).toHaveLength(1);
    expect(await birthdayNotes(b.id, b.id)).toHaveLength(0);
    expect(await getItem(BirthdayAnnouncement.key({ date: DAY, userId: b.id }), true)).toMatchObject({
      step: 2,
      sent: 60,
      doneAt: expect.any(String),
    });
    await sweepBirthdays(NOW);
    expect(await birthdayNotes(recipients[0], b.id)).toHaveLength(1);
    // A claim of another day than today is not sent (a late record must not announce yesterday's).
    const other = await birthdayPerson();
    await todaysBirthdays(viewer, NOW);
    const otherClaim = (await BirthdayAnnouncement.get({ date: DAY, userId: other.id }, { consistent: true }))!;
    await announcementFanOut([streamRecord('INSERT', otherClaim)], {
      audience,
      now: new Date(NOW.getTime() + 2 * 24 * 3600 * 1000),
    });
    expect(await birthdayNotes(recipients[0], other.id)).toHaveLength(0);
    const listed = await todaysBirthdays(viewer, NOW);
    expect(listed.find((x) => x.id === b.id)).toEqual({
      id: b.id,
      name: b.name,
      image: null,
      title: '',
      wished: false,
      wishCount: 0,
    });
  });

  it('resumes an announcement whose sender stopped half way, without repeating a page', async () => {
    const b = await birthdayPerson();
    const recipients = Array.from({ length: 70 }, (_, i) => `recipient-${uniq()}-${i}`);
    const healthy = audienceOf(recipients);
    let failSecondPage = true;
    const flaky: Audience = {
      async page(q) {
        if (q.cursor !== null && failSecondPage) throw new Error('the sender died');
        return healthy.page(q);
      },
    };
    await announceBirthdays([b], DAY, flaky);
    expect(await birthdayNotes(recipients[0], b.id)).toHaveLength(1);
    expect(await birthdayNotes(recipients[69], b.id)).toHaveLength(0);
    // Another reader right away leaves a live claim alone.
    failSecondPage = false;
    await announceBirthdays([b], DAY, healthy);
    expect(await birthdayNotes(recipients[69], b.id)).toHaveLength(0);
    // Once the claim is stale, the next reader takes it over and goes on from the recorded page.
    await write(
      BirthdayAnnouncement.update(
        { date: DAY, userId: b.id },
        {
          UpdateExpression: 'SET heartbeatAt = :old',
          ExpressionAttributeValues: { ':old': '2000-01-01T00:00:00.000Z' },
        },
      ),
    );
    await Promise.all([announceBirthdays([b], DAY, healthy), announceBirthdays([b], DAY, healthy)]);
    for (const id of [recipients[0], recipients[48], recipients[49], recipients[69]])
      expect(await birthdayNotes(id, b.id)).toHaveLength(1);
  });

  it('reaches active members who joined by the time it went out, never later ones nor the birthday person', async () => {
    const b = await birthdayPerson();
    const early = await newMember();
    const cutoff = new Date().toISOString();
    const late = await newMember();
    // Read-only: pages through the real audience (the members index) as a sender would.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await activeMembers.page({ cutoff, excludeId: b.id, cursor, limit: 49 });
      seen.push(...page.ids);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toContain(early.id);
    expect(seen).not.toContain(late.id);
    expect(seen).not.toContain(b.id);
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
