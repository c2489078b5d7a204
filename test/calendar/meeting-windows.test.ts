import { describe, expect, it } from 'vitest';
import { Meeting, type MeetingItem, MeetingSeat } from '../../shared/calendar/meetings/entities.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { putMany } from '../../shared/db/table.ts';
import { startOfCompanyDay } from '../../shared/util/time.ts';
import { type ApiResponse, admin, api, newMember, uniq } from '../support/api.ts';
import { allLinkPages } from '../support/link-pages.ts';

/**
 * `GET /meetings` answers a time window (decisions §4): from the start of today in the company's
 * timezone for 92 days unless `from` / `to` say otherwise, never more than 366 days, at most 500
 * meetings an answer with `Link: <…cursor=…>; rel="next"` for the rest. Through the local runtime.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** A meeting stored as the service stores it (its organizer's and everybody's index entries), with its seats. */
function meeting(organizerId: string, startMs: number, endMs: number, fields: Partial<MeetingItem> = {}) {
  const m = Meeting.item({
    id: newSortableId(),
    topic: `Window ${uniq()}`,
    description: '',
    startsAt: iso(startMs),
    endsAt: iso(endMs),
    startUtc: iso(startMs),
    endUtc: iso(endMs),
    type: 'internal',
    meetLink: 'https://meet.example.com/w',
    recordingLink: null,
    transcriptLink: null,
    organizerId,
    participantIds: [],
    externalEmails: [],
    cancelledAt: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    version: 1,
    actorId: organizerId,
    ...fields,
  });
  const seats = m.participantIds.map((userId) =>
    MeetingSeat.item({ meetingId: m.id, userId, startUtc: m.startUtc, endUtc: m.endUtc, version: 1 }),
  );
  return { m, items: [m, ...seats] };
}

const ids = (list: { id: string }[]) => list.map((x) => x.id);

const allPages = (path: string, token: string) =>
  allLinkPages<{ id: string; startsAt: string }>(path, token, /^\/api\/v1\/meetings\?/);

/** A window far from every other test's meetings: a random day some decades ahead. */
const farDay = () => Date.UTC(2060 + Math.floor(Math.random() * 30), 0, 1) + Math.floor(Math.random() * 300) * DAY;

describe('meetings: the default window', () => {
  it('starts at the start of today (company timezone) and ends 92 days later', async () => {
    const member = await newMember();
    const today = startOfCompanyDay(new Date()).getTime();
    const yesterday = meeting(member.id, today - 20 * HOUR, today - 19 * HOUR);
    const laterToday = meeting(member.id, today + 22 * HOUR, today + 23 * HOUR);
    const justBefore = meeting(member.id, today - 2 * HOUR, today - 30 * MIN);
    const overMidnight = meeting(member.id, today - HOUR, today + HOUR);
    const in91Days = meeting(member.id, today + 91 * DAY, today + 91 * DAY + HOUR);
    const in93Days = meeting(member.id, today + 93 * DAY, today + 93 * DAY + HOUR);
    // A long meeting (a two-day offsite) under way since yesterday morning: found through the long-meeting index.
    const offsite = meeting(member.id, today - 30 * HOUR, today + 20 * HOUR);
    const all = [yesterday, laterToday, justBefore, overMidnight, in91Days, in93Days, offsite];
    await putMany(all.flatMap((x) => x.items));

    const listed = await api('GET', '/meetings', { token: member.token });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('link')).toBeNull();
    expect(ids(listed.body)).toEqual([offsite.m.id, overMidnight.m.id, laterToday.m.id, in91Days.m.id]);

    const withFrom = await api('GET', `/meetings?from=${iso(today - DAY)}`, { token: member.token });
    expect(ids(withFrom.body)).toEqual([
      offsite.m.id,
      yesterday.m.id,
      justBefore.m.id,
      overMidnight.m.id,
      laterToday.m.id,
      in91Days.m.id,
    ]);
    const withTo = await api('GET', `/meetings?to=${iso(today + 100 * DAY)}`, { token: member.token });
    expect(ids(withTo.body)).toEqual([offsite.m.id, overMidnight.m.id, laterToday.m.id, in91Days.m.id, in93Days.m.id]);
  });

  it('refuses a window longer than 366 days with the common error body', async () => {
    const member = await newMember();
    const from = Date.UTC(2030, 0, 1);
    const tooLong = await api('GET', `/meetings?from=${iso(from)}&to=${iso(from + 367 * DAY)}`, {
      token: member.token,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBeTruthy();
    expect(JSON.stringify(tooLong.body)).toContain('366 days');
    const longest = await api('GET', `/meetings?from=${iso(from)}&to=${iso(from + 366 * DAY)}`, {
      token: member.token,
    });
    expect(longest.status).toBe(200);
    // `from` alone far back: its window is 92 days, never everything since.
    const a = await admin();
    expect((await api('GET', `/meetings?from=${iso(Date.UTC(2000, 0, 1))}`, { token: a.token })).status).toBe(200);
    // A cursor of another list, or made up, is a 400 too.
    expect((await api('GET', '/meetings?cursor=not-a-cursor', { token: member.token })).status).toBe(400);
  });
});

describe('meetings: pages of at most 500', () => {
  it('gives every meeting of a large window exactly once, in order, through Link and cursor', async () => {
    const organizer = await newMember();
    const participant = await newMember();
    const outsider = await newMember();
    const start = farDay();
    // 1,030 meetings over 30 days (a few at the same instant), every third with the participant, every
    // fifth a client call; one long meeting under way when the window opens; one of somebody else.
    const made = Array.from({ length: 1030 }, (_, i) => {
      const at = start + Math.floor(i / 2) * 50 * MIN;
      return meeting(organizer.id, at, at + 30 * MIN, {
        participantIds: i % 3 === 0 ? [participant.id] : [],
        type: i % 5 === 0 ? 'client' : 'internal',
      });
    });
    const running = meeting(organizer.id, start - 3 * DAY, start + HOUR, { participantIds: [participant.id] });
    const others = meeting(outsider.id, start + HOUR, start + 2 * HOUR);
    await putMany([running, ...made, others].flatMap((x) => x.items));
    const inOrder = [running, ...made]
      .map((x) => x.m)
      .sort((a, b) => a.startUtc.localeCompare(b.startUtc) || a.id.localeCompare(b.id));
    const window = `from=${encodeURIComponent(iso(start))}&to=${encodeURIComponent(iso(start + 40 * DAY))}`;

    const pages = await allPages(`/meetings?${window}`, organizer.token);
    expect(pages.map((p) => p.length)).toEqual([500, 500, 31]);
    expect(pages.flat().map((x) => x.id)).toEqual(inOrder.map((m) => m.id));

    // A participant sees the meetings they join (through their seats), a page at a time; never others'.
    const seated = inOrder.filter((m) => m.participantIds.includes(participant.id));
    const theirs = (await allPages(`/meetings?${window}`, participant.token)).flat();
    expect(theirs.map((x) => x.id)).toEqual(seated.map((m) => m.id));
    expect(ids(theirs)).not.toContain(others.m.id);
    expect((await allPages(`/meetings?${window}`, outsider.token)).flat().map((x) => x.id)).toEqual([others.m.id]);

    // Filters stay exact across pages.
    const clients = (await allPages(`/meetings?${window}&type=client`, organizer.token)).flat();
    expect(clients.map((x) => x.id)).toEqual(inOrder.filter((m) => m.type === 'client').map((m) => m.id));
    const topic = made[700].m.topic;
    expect((await allPages(`/meetings?${window}&search=${topic}`, organizer.token)).flat().map((x) => x.id)).toEqual([
      made[700].m.id,
    ]);

    // A super admin: one person's (employeeId), and everybody's in the window.
    const a = await admin();
    const byPerson = (await allPages(`/meetings?${window}&employeeId=${participant.id}`, a.token)).flat();
    expect(byPerson.map((x) => x.id)).toEqual(seated.map((m) => m.id));
    const everybody = (await allPages(`/meetings?${window}`, a.token)).flat();
    const everyId = everybody.map((x) => x.id);
    expect(new Set(everyId).size).toBe(everyId.length);
    const mine = new Set([...inOrder.map((m) => m.id), others.m.id]);
    expect(everyId.filter((id) => mine.has(id))).toEqual(
      [...inOrder.map((x) => x), others.m]
        .sort((x, y) => x.startUtc.localeCompare(y.startUtc) || x.id.localeCompare(y.id))
        .map((m) => m.id),
    );
    const starts = everybody.map((x) => Date.parse(x.startsAt));
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
  }, 120_000);

  it('also keeps an answer near 1 MB: long descriptions and many participants page sooner', async () => {
    const organizer = await newMember();
    const start = farDay();
    const participants = await Promise.all(Array.from({ length: 3 }, () => newMember()));
    const made = Array.from({ length: 300 }, (_, i) =>
      meeting(organizer.id, start + i * HOUR, start + i * HOUR + 30 * MIN, {
        description: `${'Agenda. '.repeat(624)}${i}`.slice(0, 5000),
        participantIds: participants.map((p) => p.id),
        externalEmails: Array.from({ length: 20 }, (_, k) => `guest-${k}@external.example.org`),
      }),
    );
    await putMany(made.flatMap((x) => x.items));
    const window = `from=${encodeURIComponent(iso(start))}&to=${encodeURIComponent(iso(start + 20 * DAY))}`;
    const sizes: number[] = [];
    const seen: string[] = [];
    let next: string | null = `/meetings?${window}`;
    while (next) {
      const res: ApiResponse = await api('GET', next, { token: organizer.token });
      expect(res.status).toBe(200);
      sizes.push(Buffer.byteLength(res.text));
      seen.push(...ids(res.body));
      next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
      expect(sizes.length).toBeLessThan(10);
    }
    expect(seen).toEqual(made.map((x) => x.m.id));
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThan(1.1 * 1024 * 1024);
  }, 120_000);
});

describe('the OpenAPI document of the time-bounded lists', () => {
  it('describes the window defaults, the cursor parameter and the Link header on both routes', async () => {
    const a = await admin();
    const doc = (await api('GET', '/openapi.json', { token: a.token })).body;
    for (const path of ['/api/v1/meetings', '/api/v1/leave/requests']) {
      const op = doc.paths[path].get;
      const cursor = op.parameters.find((p: { name: string; in: string }) => p.name === 'cursor' && p.in === 'query');
      expect(cursor?.description, path).toContain('Link');
      expect(op.responses['200'].headers?.Link?.description, path).toContain('rel="next"');
      expect(op.description, path).toContain('366 days');
      const from = op.parameters.find((p: { name: string }) => p.name === 'from');
      expect(from.description, path).toMatch(/default/);
    }
    const meetings = doc.paths['/api/v1/meetings'].get;
    expect(meetings.description).toContain('92 days');
    expect(meetings.parameters.find((p: { name: string }) => p.name === 'to').description).toContain('92 days');
  });
});
