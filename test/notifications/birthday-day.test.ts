import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { birthdayPreview } from '../../shared/calendar/birthdays/announce.ts';
import { companyDate } from '../../shared/util/time.ts';
import { type SeededCompany, seededCompany } from '../support/seeded-company.ts';
import { isChange, openSse } from '../support/sse.ts';

/**
 * Decisions §8 through the local runtime, in a company of its own (a real birthday notification
 * goes to every active member, which would reach other test files' people): five birthday people on
 * one day give every other member exactly one `birthday` notification naming them; a sixth later
 * that day updates that same notification, unread again, the unread count right.
 */
const PEOPLE = 150;
const BIRTHDAYS = [10, 40, 70, 100, 130];
const today = companyDate(new Date());

let company: SeededCompany;
beforeAll(async () => {
  company = await seededCompany(PEOPLE, (i) =>
    BIRTHDAYS.includes(i)
      ? { name: `Bday ${String.fromCharCode(66 + (i % 7))} ${i}`, dateOfBirth: `1990-${today.slice(5)}` }
      : {},
  );
}, 180_000);
afterAll(async () => {
  await company?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await sleep(500);
  }
}

const sortedPeople = (ids: string[], names: Map<string, string>) =>
  ids
    .map((id) => ({ id, name: names.get(id)! }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

describe('the birthday notification of a day (decisions §8), through the local runtime', () => {
  it('five birthday people: one notification each naming them; a sixth later that day revises it, unread again', async () => {
    const [r1, r2, r3, sixth] = [
      await company.member('Reader One'),
      await company.member('Reader Two'),
      await company.member('Reader Three'),
      await company.member('Aaron Sixth'), // sorts first among the six
    ];
    const names = new Map(company.names);
    for (const m of [r1, r2, r3, sixth]) names.set(m.id, m.name);
    const birthdayIds = BIRTHDAYS.map((i) => company.ids[i]);
    const everybody = [...company.ids, r1.id, r2.id, r3.id, sixth.id]; // and the admin
    const stream = await openSse(company.baseUrl, r1.token);
    expect(stream.status).toBe(200);

    const listed = await company.call('GET', '/birthdays/today', r1.token);
    expect(listed.status).toBe(200);
    expect(listed.body.map((b: { id: string }) => b.id).sort()).toEqual([...birthdayIds].sort());
    const late = await company.member('Joined Later'); // after the day's first announcement: not told

    const expected = (recipientId: string, celebrants: string[]) => {
      const named = sortedPeople(celebrants, names).filter((p) => p.id !== recipientId);
      return { preview: birthdayPreview(named).preview, actorId: named[0].id };
    };
    const birthdays = async () => (await company.notifications()).filter((n) => n.c.kind === 'birthday');
    let notes = await until(birthdays, (l) => l.length >= everybody.length + 1);
    const byRecipient = (list: typeof notes) => {
      const m = new Map<string, typeof notes>();
      for (const n of list) m.set(n.recipientId, [...(m.get(n.recipientId) ?? []), n]);
      return m;
    };
    let grouped = byRecipient(notes);
    for (const id of everybody) {
      const mine = grouped.get(id) ?? [];
      expect(mine, id).toHaveLength(1);
      expect(mine[0].c, id).toMatchObject(expected(id, birthdayIds));
    }
    expect(grouped.get(late.id)).toBeUndefined();
    expect(notes).toHaveLength(everybody.length + 1); // the admin's, and nobody else's
    expect(expected(r1.id, birthdayIds).preview).toMatch(
      /^Birthdays today: .+, .+, .+ and 2 more\. Send them your wishes!$/,
    );
    const noticeId = grouped.get(r1.id)![0].id;
    await stream.next(isChange('notification.created', (p) => p.notificationId === noticeId));
    const listedNote = (await company.call('GET', '/notifications', r1.token)).body.find(
      (n: { id: string }) => n.id === noticeId,
    );
    expect(listedNote).toMatchObject({
      kind: 'birthday',
      readAt: null,
      actor: { id: expected(r1.id, birthdayIds).actorId },
    });

    // r1 reads it, r2 marks everything read, r3 leaves it.
    expect((await company.call('POST', '/notifications/read', r1.token, { id: noticeId })).status).toBe(204);
    expect((await company.call('POST', '/notifications/read', r2.token, {})).status).toBe(204);
    const counts = async () =>
      Promise.all(
        [r1, r2, r3].map(async (r) => (await company.call('GET', '/notifications/unread-count', r.token)).body.count),
      );
    expect(await counts()).toEqual([0, 0, 1]);

    // The sixth: their date of birth corrected to today, then a read of today's list announces them.
    const patched = await company.call('PATCH', '/users/me/profile', sixth.token, {
      dateOfBirth: `1991-${today.slice(5)}`,
    });
    expect(patched.status).toBe(200);
    const six = [...birthdayIds, sixth.id];
    expect((await company.call('GET', '/birthdays/today', r3.token)).body).toHaveLength(6);
    notes = await until(
      birthdays,
      (l) => l.filter((n) => n.c.preview === expected(n.recipientId, six).preview).length >= everybody.length + 1,
    );
    grouped = byRecipient(notes);
    for (const id of everybody) {
      const mine = grouped.get(id) ?? [];
      expect(mine, id).toHaveLength(1);
      expect(mine[0], id).toMatchObject({ id: noticeId, readAt: null, c: expected(id, six) });
    }
    expect(grouped.get(late.id)).toBeUndefined();
    expect(expected(r1.id, six).preview).toContain(`${names.get(sixth.id)}, `);
    expect(expected(r1.id, six).preview).toContain('and 3 more');
    // Unread again for those who had read it; counted once for the one who had not.
    expect(await counts()).toEqual([1, 1, 1]);
    const again = (await company.call('GET', '/notifications', r1.token)).body.filter(
      (n: { kind: string }) => n.kind === 'birthday',
    );
    expect(again).toEqual([
      expect.objectContaining({ id: noticeId, readAt: null, actor: expect.objectContaining({ id: sixth.id }) }),
    ]);
    // The live stream follows the one item: notification.created again, for the same id.
    await until(
      async () => stream.frames.filter(isChange('notification.created', (p) => p.notificationId === noticeId)).length,
      (n) => n >= 2,
      20_000,
    );
    expect(stream.frames.filter(isChange('notification.created', (p) => p.notificationId === noticeId))).toHaveLength(
      2,
    );
    stream.close();
  }, 300_000);
});
