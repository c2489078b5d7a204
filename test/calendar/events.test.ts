import { describe, expect, it } from 'vitest';
import { companyEventChanges } from '../../shared/calendar/change-events.ts';
import { createEvent, listEvents } from '../../shared/calendar/events.ts';
import type { ItemChange } from '../../shared/live/change-events.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
/** The moment `ms` from now written in a UTC offset of `minutes`, e.g. 120 -> +02:00. */
function withOffset(ms: number, minutes: number): string {
  const local = new Date(Date.now() + ms + minutes * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(minutes);
  return `${local}${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

describe('company events', () => {
  it('keeps the offset, lists soonest first and answers canManage per reader', async () => {
    const owner = await newMember();
    const other = await newMember();
    const late = await api('POST', '/events', {
      token: owner.token,
      body: { title: `Late ${uniq()}`, startsAt: withOffset(2 * HOUR, 120) },
    });
    const early = await api('POST', '/events', {
      token: owner.token,
      body: {
        title: `Early ${uniq()}`,
        startsAt: withOffset(HOUR, -420).slice(0, 16) + '-07:00',
        endsAt: withOffset(90 * 60_000, -420),
        location: ' Hall ',
      },
    });
    expect(late.status).toBe(201);
    expect(late.body.startsAt).toMatch(/\+02:00$/);
    expect(early.body.startsAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00-07:00$/);
    expect(early.body).toMatchObject({
      location: 'Hall',
      canManage: true,
      endsAt: expect.stringMatching(/-07:00$/),
      createdBy: { id: owner.id, name: owner.name, image: null },
    });
    const listed = (await api('GET', '/events?limit=50', { token: other.token })).body as any[];
    const ids = listed.map((e) => e.id);
    expect(ids.indexOf(early.body.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(early.body.id)).toBeLessThan(ids.indexOf(late.body.id));
    expect(listed.find((e) => e.id === early.body.id)?.canManage).toBe(false);
    for (let i = 1; i < listed.length; i++)
      expect(Date.parse(listed[i - 1].startsAt)).toBeLessThanOrEqual(Date.parse(listed[i].startsAt));
  });

  it('lists events under way, short and long, and leaves out the ones that are over', async () => {
    const m = await newMember();
    const threeDaysAgo = new Date(Date.now() - 3 * DAY);
    // Created "in the past" through the domain (the API refuses a start in the past).
    const longOngoing = await createEvent(
      m.id,
      { title: `Conference ${uniq()}`, startsAt: iso(-3 * DAY + HOUR), endsAt: iso(2 * DAY) },
      threeDaysAgo,
    );
    const shortOngoing = await createEvent(
      m.id,
      { title: `Workshop ${uniq()}`, startsAt: iso(-HOUR), endsAt: iso(HOUR) },
      threeDaysAgo,
    );
    const over = await createEvent(
      m.id,
      { title: `Breakfast ${uniq()}`, startsAt: iso(-2 * HOUR), endsAt: iso(-HOUR) },
      threeDaysAgo,
    );
    const longOver = await createEvent(
      m.id,
      { title: `Offsite ${uniq()}`, startsAt: iso(-3 * DAY + HOUR), endsAt: iso(-HOUR) },
      threeDaysAgo,
    );
    const started = await createEvent(m.id, { title: `Started ${uniq()}`, startsAt: iso(-HOUR) }, threeDaysAgo);
    const ids = (await listEvents(50)).map((e) => e.id);
    expect(ids).toContain(longOngoing.id);
    expect(ids).toContain(shortOngoing.id);
    expect(ids).not.toContain(over.id);
    expect(ids).not.toContain(longOver.id);
    expect(ids).not.toContain(started.id);
    expect(ids.indexOf(longOngoing.id)).toBeLessThan(ids.indexOf(shortOngoing.id));
    const listed = (await api('GET', '/events?limit=50', { token: m.token })).body as any[];
    expect(listed.map((e) => e.id)).toContain(longOngoing.id);
  });

  it('moves an event (endsAt kept unless sent; null clears it) and keeps it in the right index', async () => {
    const m = await newMember();
    const ev = (
      await api('POST', '/events', {
        token: m.token,
        body: { title: `Move ${uniq()}`, startsAt: iso(HOUR), endsAt: iso(3 * DAY) },
      })
    ).body;
    const moved = await api('PATCH', `/events/${ev.id}`, { token: m.token, body: { startsAt: iso(2 * HOUR) } });
    expect(moved.status).toBe(200);
    expect(moved.body.endsAt).toBe(ev.endsAt);
    expect((await api('PATCH', `/events/${ev.id}`, { token: m.token, body: { startsAt: iso(4 * DAY) } })).status).toBe(
      400,
    );
    const cleared = await api('PATCH', `/events/${ev.id}`, {
      token: m.token,
      body: { startsAt: iso(4 * DAY), endsAt: null },
    });
    expect(cleared.body.endsAt).toBeNull();
    expect(
      (await api('PATCH', `/events/${ev.id}`, { token: m.token, body: { startsAt: '2099-01-01T00:00:00' } })).status,
    ).toBe(400);
    expect(
      (await api('PATCH', `/events/${ev.id}`, { token: m.token, body: { startsAt: iso(4 * DAY), title: 'x' } })).status,
    ).toBe(400);
  });

  it('lets the owner and super admins manage, others get 403, unknown ids 404', async () => {
    const owner = await newMember();
    const other = await newMember();
    const a = await admin();
    const ev = (
      await api('POST', '/events', { token: owner.token, body: { title: `Perm ${uniq()}`, startsAt: iso(HOUR) } })
    ).body;
    expect((await api('DELETE', `/events/${ev.id}`, { token: other.token })).status).toBe(403);
    expect(
      (await api('PATCH', `/events/${ev.id}`, { token: a.token, body: { startsAt: iso(2 * HOUR) } })).body.canManage,
    ).toBe(true);
    expect((await api('DELETE', `/events/${ev.id}`, { token: a.token })).status).toBe(204);
    expect((await api('DELETE', `/events/${ev.id}`, { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/events?limit=0', { token: owner.token })).status).toBe(400);
    expect((await api('GET', '/events?limit=500', { token: owner.token })).status).toBe(200);
  });
});

describe('event.updated on the change feed', () => {
  const image = {
    entity: 'CompanyEvent',
    id: 'e1',
    startsAt: '2030-01-01T09:00:00Z',
    endsAt: null,
    title: 'T',
    actorId: 'u1',
  };
  const change = (c: Partial<ItemChange>): ItemChange => ({
    eventName: 'MODIFY',
    oldImage: undefined,
    newImage: undefined,
    at: new Date(),
    ...c,
  });

  it('announces a created, moved or deleted event to everyone', () => {
    expect(companyEventChanges(change({ eventName: 'INSERT', newImage: image }))).toEqual([
      { type: 'event.updated', actorId: 'u1', payload: { eventId: 'e1' }, audience: { kind: 'all' } },
    ]);
    const moved = companyEventChanges(
      change({ oldImage: image, newImage: { ...image, startsAt: '2030-01-02T09:00:00Z', actorId: 'admin' } }),
    );
    expect(moved).toEqual([
      { type: 'event.updated', actorId: 'admin', payload: { eventId: 'e1' }, audience: { kind: 'all' } },
    ]);
    expect(companyEventChanges(change({ eventName: 'REMOVE', oldImage: image }))).toEqual([
      { type: 'event.updated', actorId: 'u1', payload: { eventId: null }, audience: { kind: 'all' } },
    ]);
  });

  it('stays quiet when nothing a reader sees changed', () => {
    expect(companyEventChanges(change({ oldImage: image, newImage: { ...image, actorId: 'u2' } }))).toEqual([]);
  });
});
