import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getItem, write } from '../../shared/db/table.ts';
import { Presence, PresenceConnection, presenceFields } from '../../shared/presence/entities.ts';
import { ACTIVE_MS, nextChangeAt, ONLINE_MS, presenceAt } from '../../shared/presence/model.ts';
import { sweepPresence } from '../../shared/presence/sweep.ts';
import { presencesOf } from '../../shared/presence/view.ts';
import { api, newMember } from '../support/api.ts';
import { isChange } from '../support/sse.ts';
import { openStream } from './sse-client.ts';

const beat = (token: string, connectionId: string, active = true) =>
  api('POST', '/presence/heartbeat', { token, body: { connectionId, active } });
const presenceItemOf = (userId: string) => Presence.get({ userId }, { consistent: true });

describe('presence rules', () => {
  const now = 1_000_000_000;
  it('is active with an active heartbeat in 300 s and any in 180 s, away when only connected, else offline', () => {
    expect(presenceAt({ onlineUntil: now + 1, activeUntil: now + 1 }, now)).toBe('active');
    expect(presenceAt({ onlineUntil: now + 1, activeUntil: now }, now)).toBe('away');
    expect(presenceAt({ onlineUntil: now, activeUntil: now + 100 }, now)).toBe('offline');
    expect(presenceAt({ onlineUntil: 0, activeUntil: 0 }, now)).toBe('offline');
  });

  it('knows when the value changes next: away at the end of activity, offline at the end of heartbeats', () => {
    expect(nextChangeAt({ onlineUntil: now + ONLINE_MS, activeUntil: now + ACTIVE_MS }, now)).toBe(now + ONLINE_MS);
    expect(nextChangeAt({ onlineUntil: now + ONLINE_MS, activeUntil: now + 60_000 }, now)).toBe(now + 60_000);
    expect(nextChangeAt({ onlineUntil: now + ONLINE_MS, activeUntil: now - 1 }, now)).toBe(now + ONLINE_MS);
    expect(nextChangeAt({ onlineUntil: now, activeUntil: now + 5 }, now)).toBeNull();
  });
});

describe('heartbeats', () => {
  it('keeps lastSeenAt at the latest heartbeat of any kind', async () => {
    const m = await newMember();
    const cid = randomUUID();
    expect((await beat(m.token, cid, true)).status).toBe(204);
    const first = (await presencesOf([m.id])).get(m.id)!;
    await new Promise((r) => setTimeout(r, 20));
    expect((await beat(m.token, cid, false)).status).toBe(204);
    const second = (await presencesOf([m.id])).get(m.id)!;
    expect(second.presence).toBe('active'); // the active heartbeat still counts for 300 s
    expect(Date.parse(second.lastSeenAt!)).toBeGreaterThan(Date.parse(first.lastSeenAt!));
  });

  it('stays exact under 50 concurrent heartbeats and 50 concurrent closes', async () => {
    const m = await newMember();
    const ids = Array.from({ length: 50 }, () => randomUUID());
    const beats = await Promise.all(ids.map((id, i) => beat(m.token, id, i % 2 === 0)));
    expect(beats.every((r) => r.status === 204)).toBe(true);
    expect((await PresenceConnection.queryAll({ key: { userId: m.id }, consistent: true })).length).toBe(50);
    expect((await presenceItemOf(m.id))?.presence).toBe('active');
    const closes = await Promise.all(
      ids.map((id) => api('POST', `/presence/connections/${id}/close`, { token: m.token })),
    );
    expect(closes.every((r) => r.status === 204)).toBe(true);
    const item = await presenceItemOf(m.id);
    expect(item?.presence).toBe('offline');
    expect((await presencesOf([m.id])).get(m.id)?.presence).toBe('offline');
  });

  it('signs out only the calling session: another device keeps the person present', async () => {
    const m = await newMember();
    const other = await api('POST', '/auth/sign-in/email', { body: { email: m.email, password: 'test-password-1' } });
    const otherToken = other.headers.get('set-auth-token')!;
    await beat(m.token, randomUUID(), true);
    await beat(otherToken, randomUUID(), false);
    expect((await api('POST', '/presence/sign-out', { token: m.token })).status).toBe(204);
    expect((await presencesOf([m.id])).get(m.id)?.presence).toBe('away'); // the other device, never active
    expect((await api('POST', '/presence/sign-out', { token: otherToken })).status).toBe(204);
    expect((await presencesOf([m.id])).get(m.id)?.presence).toBe('offline');
  });

  it('refuses bad bodies and closing an unknown connection changes nothing', async () => {
    const m = await newMember();
    expect(
      (await api('POST', '/presence/heartbeat', { token: m.token, body: { connectionId: '', active: true } })).status,
    ).toBe(400);
    expect(
      (await api('POST', '/presence/heartbeat', { token: m.token, body: { connectionId: '   ', active: true } }))
        .status,
    ).toBe(400);
    expect(
      (
        await api('POST', '/presence/heartbeat', {
          token: m.token,
          body: { connectionId: 'x'.repeat(201), active: true },
        })
      ).status,
    ).toBe(400);
    expect((await api('POST', `/presence/connections/${randomUUID()}/close`, { token: m.token })).status).toBe(204);
    expect(await presenceItemOf(m.id)).toBeUndefined();
  });
});

describe('presence sweep', () => {
  /** A person's presence item as the heartbeats would have left it, with deadlines relative to now. */
  async function seed(onlineIn: number, activeIn: number, announced: 'active' | 'away' | 'offline') {
    const userId = `sweep-${randomUUID()}`;
    const t = Date.now();
    const fields = presenceFields(
      userId,
      { onlineUntil: t + onlineIn, activeUntil: t + activeIn, lastSeenAt: new Date(t).toISOString() },
      1,
      t - 1_000_000,
    );
    await write(Presence.put({ ...fields, presence: announced }));
    return userId;
  }

  it('records timeouts (active → away, → offline) and announces them with presence.updated', async () => {
    const observer = await newMember();
    const s = await openStream(observer.token);
    try {
      await s.next((f) => f.event === 'ready');
      const goesAway = await seed(100_000, -1, 'active');
      const goesOffline = await seed(-1, -1, 'away');
      const stays = await seed(100_000, 50_000, 'active');
      const before = (await presenceItemOf(stays))!.version;
      expect(await sweepPresence()).toBeGreaterThanOrEqual(2);
      expect((await presenceItemOf(goesAway))?.presence).toBe('away');
      expect((await presenceItemOf(goesOffline))?.presence).toBe('offline');
      expect((await presenceItemOf(stays))?.version).toBe(before); // not due: not even written
      await s.next(isChange('presence.updated', (p) => p.userId === goesAway && p.presence === 'away'));
      await s.next(isChange('presence.updated', (p) => p.userId === goesOffline && p.presence === 'offline'));
      // Offline people leave the due index; the away one is due again when its heartbeats run out.
      const offline = (await getItem(Presence.key({ userId: goesOffline }), true))!;
      expect(offline.gsi6pk).toBeUndefined();
      const away = (await getItem(Presence.key({ userId: goesAway }), true))!;
      expect(away.gsi6sk).toBe(away.onlineUntil);
    } finally {
      s.close();
    }
  });

  it('is idempotent: a second run finds nothing more to do for the same people', async () => {
    const userId = await seed(-1, -1, 'active');
    await sweepPresence();
    const after = (await presenceItemOf(userId))!;
    expect(after.presence).toBe('offline');
    await sweepPresence();
    expect((await presenceItemOf(userId))!.version).toBe(after.version);
  });
});
