import { afterEach, describe, expect, it } from 'vitest';
import { MeetingMailQuota } from '../../shared/calendar/meetings/entities.ts';
import {
  cancelMeeting,
  createMeeting,
  type MeetingInput,
  updateMeeting,
} from '../../shared/calendar/meetings/meetings.ts';
import { getMeeting } from '../../shared/calendar/meetings/store.ts';
import { getItem } from '../../shared/db/table.ts';
import { DomainError } from '../../shared/errors.ts';
import { getUser } from '../../shared/people/users.ts';
import { readOutbox } from '../../shared/transports/outbox.ts';
import { api, newMember, uniq } from '../support/api.ts';

/*
 * Meeting invitations go out from the company's sender: one person may reach at most
 * MEETING_EXTERNAL_RECIPIENTS_PER_DAY external addresses a day (200 by default); past it, 429 with
 * Retry-After and nothing saved.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Math.floor((Date.now() + ms) / 1000) * 1000).toISOString();
const guests = (n: number) => Array.from({ length: n }, () => `guest-${uniq()}@external.example.org`);
const input = (externalEmails: string[]): MeetingInput => ({
  topic: `Sync ${uniq()}`,
  startsAt: at(DAY),
  endsAt: at(DAY + HOUR),
  internalParticipantIds: [],
  externalEmails,
  type: 'client',
  meetLink: 'https://meet.example.com/x',
});
const today = () => new Date().toISOString().slice(0, 10);

afterEach(() => {
  delete process.env.MEETING_EXTERNAL_RECIPIENTS_PER_DAY;
});

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).kind).toBe('too-many');
  return err as DomainError;
}

describe('meeting e-mail to external addresses is bounded per person and day', () => {
  it('answers 429 in the common body with Retry-After past 200 a day, saving and mailing nothing', async () => {
    const org = await newMember();
    for (const n of [100, 100]) {
      const res = await api('POST', '/meetings', { token: org.token, body: input(guests(n)) });
      expect(res.status).toBe(201);
    }
    const [late] = guests(1);
    const refused = await api('POST', '/meetings', { token: org.token, body: input([late]) });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: expect.any(String) });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect((await api('GET', '/meetings', { token: org.token })).body).toHaveLength(2);
    expect(readOutbox({ to: late, channel: 'email' })).toEqual([]);
    // Internal meetings are not bounded: nobody outside is mailed.
    expect((await api('POST', '/meetings', { token: org.token, body: input([]) })).status).toBe(201);
    // The bound is per person.
    const other = await newMember();
    expect((await api('POST', '/meetings', { token: other.token, body: input(guests(3)) })).status).toBe(201);
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(200);
  });

  it('counts every external address a change mails, refuses the change past the bound, and never refuses a cancellation', async () => {
    process.env.MEETING_EXTERNAL_RECIPIENTS_PER_DAY = '7';
    const m = await newMember();
    const org = (await getUser(m.id, true))!;
    const viewer = { userId: org.id, role: org.role };
    const first = guests(3);
    const meeting = await createMeeting(org, input(first));
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(3);
    // Kept 2 (update), removed 1 (cancellation), added 1 (invitation): 4 mailed, 7 in all.
    const changed = await updateMeeting(viewer, meeting.id, { externalEmails: [...first.slice(0, 2), ...guests(1)] });
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(7);
    // Any further change would mail the three invited again: refused, the meeting unchanged.
    const err = await refusal(updateMeeting(viewer, meeting.id, { topic: 'Moved on' }));
    expect(err.details.retryAfterSeconds).toBeGreaterThan(0);
    const stored = (await getMeeting(meeting.id))!;
    expect(stored.version).toBe(changed.version);
    expect(stored.topic).toBe(changed.topic);
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(7);
    // More than the bound in one request can never fit.
    await refusal(createMeeting(org, input(guests(8))));
    // Cancelling still works, but past the bound it mails no external address.
    const cancelled = await cancelMeeting(viewer, meeting.id);
    expect(cancelled.cancelledAt).not.toBeNull();
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(7);
    for (const address of cancelled.externalEmails)
      expect(readOutbox({ to: address, channel: 'email' }).filter((e) => /^Cancelled:/.test(e.subject ?? ''))).toEqual(
        [],
      );
  });

  it("counts a cancellation's e-mails to external addresses, mailing only as many as the day still allows", async () => {
    process.env.MEETING_EXTERNAL_RECIPIENTS_PER_DAY = '5';
    const m = await newMember();
    const org = (await getUser(m.id, true))!;
    const viewer = { userId: org.id, role: org.role };
    const cancelledMail = (address: string) =>
      readOutbox({ to: address, channel: 'email' }).filter((e) => /^Cancelled:/.test(e.subject ?? ''));
    // Room for all: each address is told, and counted.
    const small = await createMeeting(org, input(guests(1)));
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(1);
    await cancelMeeting(viewer, small.id);
    expect(cancelledMail(small.externalEmails[0])).toHaveLength(1);
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(2);
    // Two addresses, and room for one more today: one is told, and the day is full.
    const big = await createMeeting(org, input(guests(2)));
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(4);
    const cancelled = await cancelMeeting(viewer, big.id);
    expect(cancelled.cancelledAt).not.toBeNull();
    expect((await getItem(MeetingMailQuota.key({ userId: org.id, day: today() }), true))?.sent).toBe(5);
    const told = cancelled.externalEmails.filter((address) => cancelledMail(address).length > 0);
    expect(told).toHaveLength(1);
  });
});
