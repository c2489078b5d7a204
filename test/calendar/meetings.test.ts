import { describe, expect, it } from 'vitest';
import { Meeting, MeetingSeat } from '../../shared/calendar/meetings/entities.ts';
import { listMeetings } from '../../shared/calendar/meetings/list.ts';
import { createMeeting } from '../../shared/calendar/meetings/meetings.ts';
import { commitMeeting, getMeeting, seatWrites } from '../../shared/calendar/meetings/store.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { getUser } from '../../shared/people/users.ts';
import { readOutbox } from '../../shared/transports/outbox.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Math.floor((Date.now() + ms) / 1000) * 1000).toISOString();
const body = (fields: Record<string, unknown> = {}) => ({
  topic: `Sync ${uniq()}`,
  startsAt: at(DAY),
  endsAt: at(DAY + HOUR),
  internalParticipantIds: [],
  externalEmails: [],
  type: 'internal',
  meetLink: 'https://meet.example.com/sync',
  ...fields,
});
/** The meetings of one answer of the list (its first page). */
const listed = async (...args: Parameters<typeof listMeetings>) => (await listMeetings(...args)).meetings;
const guest = () => `guest-${uniq()}@external.example.org`;
/** The lines of the iCalendar attachment of an outbox e-mail, unfolded. */
const ics = (mail: { attachments?: { content: string }[] }) =>
  mail.attachments![0].content.replace(/\r\n /g, '').split('\r\n');
const mail = (to: string) => readOutbox({ to, channel: 'email' });
const meetingNotes = async (token: string) =>
  ((await api('GET', '/notifications?limit=50', { token })).body as any[]).filter((n) => n.kind === 'meeting');

describe('meeting e-mail', () => {
  it('invites participants and guests with an iCalendar REQUEST naming everyone, never the organizer', async () => {
    const org = await newMember();
    const p = await newMember();
    const ext = guest();
    const m = (
      await api('POST', '/meetings', {
        token: org.token,
        body: body({ internalParticipantIds: [p.id, p.id, org.id], externalEmails: [ext.toUpperCase()] }),
      })
    ).body;
    expect(m.externalEmails).toEqual([ext]);
    for (const to of [p.email, ext]) {
      const [invite] = mail(to);
      expect(invite.subject).toBe(`Invitation: ${m.topic}`);
      expect(invite.attachments![0].contentType).toBe('text/calendar; charset=utf-8; method=REQUEST');
      const lines = ics(invite);
      expect(lines).toContain('METHOD:REQUEST');
      expect(lines).toContain(`UID:meeting-${m.id}@workplace`);
      expect(lines).toContain('SEQUENCE:0');
      expect(lines).toContain(`ORGANIZER;CN=${org.name}:mailto:${org.email}`);
      expect(lines.filter((l) => l.startsWith('ATTENDEE')).map((l) => l.split('mailto:')[1])).toEqual([p.email, ext]);
      expect(lines).toContain(`DTSTART:${m.startsAt.replace(/[-:]/g, '').replace('.000', '')}`);
    }
    expect(mail(org.email)).toHaveLength(0);
    expect(await meetingNotes(p.token)).toHaveLength(1);
    expect(await meetingNotes(org.token)).toHaveLength(0);
  });

  it('on change: an update to those still invited, an invitation to those added, a cancellation to those removed', async () => {
    const org = await newMember();
    const kept = await newMember();
    const dropped = await newMember();
    const added = await newMember();
    const ext = guest();
    const m = (
      await api('POST', '/meetings', {
        token: org.token,
        body: body({ internalParticipantIds: [kept.id, dropped.id], externalEmails: [ext] }),
      })
    ).body;
    const changed = await api('PATCH', `/meetings/${m.id}`, {
      token: org.token,
      body: { internalParticipantIds: [kept.id, added.id], startsAt: at(2 * DAY), endsAt: at(2 * DAY + HOUR) },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.participants.map((x: any) => x.id)).toEqual([kept.id, added.id]);

    const [update] = mail(kept.email);
    expect(update.subject).toBe(`Updated invitation: ${m.topic}`);
    expect(ics(update)).toContain('METHOD:REQUEST');
    expect(ics(update)).toContain('SEQUENCE:1');
    expect(mail(ext)).toHaveLength(2);
    expect(ics(mail(added.email)[0])).toContain('METHOD:REQUEST');
    expect(await meetingNotes(added.token)).toHaveLength(1);
    const [cancel] = mail(dropped.email);
    expect(ics(cancel)).toContain('METHOD:CANCEL');
    expect(ics(cancel)).toContain(`UID:meeting-${m.id}@workplace`);
    // The removed participant no longer sees it, in the list or by id.
    expect((await api('GET', `/meetings/${m.id}`, { token: dropped.token })).status).toBe(404);
    expect(((await api('GET', '/meetings', { token: dropped.token })).body as any[]).some((x) => x.id === m.id)).toBe(
      false,
    );
    expect(((await api('GET', '/meetings', { token: added.token })).body as any[]).map((x) => x.id)).toEqual([m.id]);
  });

  it('on cancel: a cancellation to everyone invited and a notification to participants; a delete tells nobody', async () => {
    const org = await newMember();
    const p = await newMember();
    const ext = guest();
    const a = (
      await api('POST', '/meetings', {
        token: org.token,
        body: body({ internalParticipantIds: [p.id], externalEmails: [ext] }),
      })
    ).body;
    const b = (
      await api('POST', '/meetings', {
        token: org.token,
        body: body({ internalParticipantIds: [p.id], externalEmails: [ext] }),
      })
    ).body;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => api('POST', `/meetings/${a.id}/cancel`, { token: org.token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(mail(ext).filter((e) => ics(e).includes('METHOD:CANCEL'))).toHaveLength(1);
    expect(await meetingNotes(p.token)).toHaveLength(3); // two invitations, one cancellation
    expect((await api('DELETE', `/meetings/${b.id}`, { token: org.token })).status).toBe(200);
    expect(mail(ext)).toHaveLength(3);
    expect(await meetingNotes(p.token)).toHaveLength(3);
    expect((await api('DELETE', `/meetings/${a.id}`, { token: org.token })).status).toBe(200); // a cancelled meeting can still be deleted before it starts
  });
});

describe('meeting changes under concurrency', () => {
  it('keeps every change (none lost) and the seats in step with the meeting', async () => {
    const org = await newMember();
    const p = await newMember();
    const m = (await api('POST', '/meetings', { token: org.token, body: body({ internalParticipantIds: [p.id] }) }))
      .body;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api('PATCH', `/meetings/${m.id}`, {
          token: org.token,
          body: { startsAt: at((3 + i) * DAY), endsAt: at((3 + i) * DAY + HOUR) },
        }),
      ),
    );
    for (const r of results) expect([200, 409]).toContain(r.status);
    const winners = results.filter((r) => r.status === 200).length;
    expect(winners).toBeGreaterThanOrEqual(1);
    const stored = (await getMeeting(m.id))!;
    expect(stored.version).toBe(1 + winners);
    const seats = await MeetingSeat.queryAll({ key: { meetingId: m.id } });
    expect(seats.map((s) => [s.userId, s.startUtc, s.version])).toEqual([[p.id, stored.startUtc, stored.version]]);
    const window = {
      from: new Date(Date.parse(stored.startUtc) - 1000).toISOString(),
      to: new Date(Date.parse(stored.startUtc) + 1000).toISOString(),
    };
    const listed = await api(
      'GET',
      `/meetings?from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`,
      { token: p.token },
    );
    expect(listed.body.map((x: any) => x.id)).toEqual([m.id]);
  });

  it('writes more seats than one transaction holds, and moves them all', async () => {
    const organizer = (await getUser((await newMember()).id))!;
    const now = new Date();
    const id = newSortableId(now);
    const participantIds = Array.from({ length: 130 }, (_, i) => `synthetic-${uniq()}-${i}`);
    const fields = { id, organizerId: organizer.id, startUtc: at(DAY), endUtc: at(DAY + HOUR) };
    const meeting = Meeting.item({
      ...fields,
      topic: 'Town hall',
      description: '',
      startsAt: fields.startUtc,
      endsAt: fields.endUtc,
      type: 'general' as const,
      meetLink: '',
      recordingLink: null,
      transcriptLink: null,
      participantIds,
      externalEmails: [],
      cancelledAt: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
      actorId: organizer.id,
    });
    await commitMeeting(Meeting.put(meeting), seatWrites(meeting, []));
    expect(await MeetingSeat.queryAll({ key: { meetingId: id } })).toHaveLength(130);
    const viewer = { userId: participantIds[129], role: 'member' as const };
    expect((await listed(viewer, {})).map((x) => x.id)).toEqual([id]);

    const moved = Meeting.item({
      ...meeting,
      startUtc: at(5 * DAY),
      endUtc: at(5 * DAY + HOUR),
      participantIds: participantIds.slice(10),
      version: 2,
    });
    await commitMeeting(Meeting.put(moved), seatWrites(moved, participantIds.slice(0, 10)));
    const seats = await MeetingSeat.queryAll({ key: { meetingId: id } });
    expect(seats).toHaveLength(120);
    expect(new Set(seats.map((s) => s.startUtc))).toEqual(new Set([moved.startUtc]));
    expect(await listed(viewer, { to: at(2 * DAY) })).toEqual([]);
    expect((await listed(viewer, { from: at(4 * DAY) })).map((x) => x.id)).toEqual([id]);
    expect(await listed({ userId: participantIds[0], role: 'member' }, {})).toEqual([]);
  });
});

describe('meeting list by time', () => {
  it('finds a long meeting under way through `from`, and reads statuses from the clock', async () => {
    const member = await newMember();
    const org = (await getUser(member.id))!;
    const token = member.token;
    const twoDaysAgo = new Date(Date.now() - 2 * DAY);
    // Created "in the past" through the domain: it started a day and a half ago and ends tomorrow.
    const long = await createMeeting(org, { ...body(), startsAt: at(-1.5 * DAY), endsAt: at(DAY) } as any, twoDaysAgo);
    const viewer = { userId: org.id, role: 'member' as const };
    const ongoing = await listed(viewer, { from: at(0) });
    expect(ongoing.map((x) => x.id)).toContain(long.id);
    expect((await listed(viewer, { to: at(-2 * DAY) })).map((x) => x.id)).not.toContain(long.id);
    expect((await listed(viewer, { status: 'IN_PROGRESS' })).map((x) => x.id)).toEqual([long.id]);
    const a = await admin();
    const asAdmin = await api('GET', `/meetings?employeeId=${org.id}&status=IN_PROGRESS`, { token: a.token });
    expect(asAdmin.body.map((x: any) => x.id)).toEqual([long.id]);
    // Started: no change, cancel or delete; the recording route still works.
    expect((await api('PATCH', `/meetings/${long.id}`, { token, body: { topic: 'Late' } })).status).toBe(409);
    expect(
      (
        await api('PATCH', `/meetings/${long.id}/recording`, {
          token,
          body: { recordingLink: 'ftp://x.example.com/r' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api('PATCH', `/meetings/${long.id}/recording`, {
          token,
          body: { transcriptLink: 'https://x.example.com/t' },
        })
      ).body.transcriptLink,
    ).toBe('https://x.example.com/t');
  });

  it('rejects malformed filters and unknown parameters', async () => {
    const m = await newMember();
    expect((await api('GET', '/meetings?from=yesterday', { token: m.token })).status).toBe(400);
    expect((await api('GET', '/meetings?status=DONE', { token: m.token })).status).toBe(400);
    expect((await api('GET', '/meetings?limit=5', { token: m.token })).status).toBe(400);
    expect(
      (
        await api('GET', `/meetings?from=${encodeURIComponent(at(DAY))}&to=${encodeURIComponent(at(0))}`, {
          token: m.token,
        })
      ).body,
    ).toEqual([]);
  });
});
