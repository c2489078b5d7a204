import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { notify } from '../../shared/notifications/notifications.ts';
import { api, newMember } from '../support/api.ts';
import { isChange } from '../support/sse.ts';
import { openStream } from './sse-client.ts';

const heartbeat = (token: string, active = true) =>
  api('POST', '/presence/heartbeat', { token, body: { connectionId: randomUUID(), active } });
const notifyComment = (recipientId: string, actorId: string, preview = 'hello') =>
  notify([{ recipientId, kind: 'comment', actorId, postId: 'p1', preview }]);

describe('stream connection', () => {
  it('needs a session (401, common body) and takes no query parameters (400)', async () => {
    const none = await api('GET', '/realtime/stream');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const m = await newMember();
    const bad = await api('GET', '/realtime/stream?since=1', { token: m.token });
    expect(bad.status).toBe(400);
    expect(bad.body.statusCode).toBe(400);
  });

  it('answers text/event-stream and sends ready first, carrying the epoch and the position as id', async () => {
    const m = await newMember();
    const s = await openStream(m.token);
    try {
      expect(s.status).toBe(200);
      const ready = await s.next((f) => f.event === 'ready');
      expect(s.frames[0]).toBe(ready);
      expect(ready.data.epoch).toMatch(/^[0-9a-f-]{36}$/);
      expect(ready.id).toMatch(new RegExp(`^${ready.data.epoch}:\\d+$`));
    } finally {
      s.close();
    }
  });
});

describe('stream audience and order', () => {
  it('sends notification.created to the recipient only; everyone-events to all', async () => {
    const recipient = await newMember();
    const other = await newMember();
    const actor = await newMember();
    const sr = await openStream(recipient.token);
    const so = await openStream(other.token);
    try {
      await Promise.all([sr.next((f) => f.event === 'ready'), so.next((f) => f.event === 'ready')]);
      const [id] = await notifyComment(recipient.id, actor.id);
      const f = await sr.next(isChange('notification.created', (p) => p.notificationId === id));
      expect(f.data).toMatchObject({ actorId: actor.id, payload: { notificationId: id, kind: 'comment' } });
      // Barrier: an everyone-event emitted after it reaches the other stream, so the notification would have too.
      await heartbeat(actor.token);
      await so.next(isChange('presence.updated', (p) => p.userId === actor.id));
      expect(so.frames.some((x) => x.data?.payload?.notificationId === id)).toBe(false);
    } finally {
      sr.close();
      so.close();
    }
  });

  it('delivers concurrent changes in increasing seq order without duplicates', async () => {
    const recipient = await newMember();
    const actor = await newMember();
    const s = await openStream(recipient.token);
    try {
      await s.next((f) => f.event === 'ready');
      const ids = (
        await Promise.all(Array.from({ length: 30 }, (_, i) => notifyComment(recipient.id, actor.id, `n${i}`)))
      ).flat();
      await Promise.all(
        ids.map((id) =>
          s.next(
            isChange('notification.created', (p) => p.notificationId === id),
            20_000,
          ),
        ),
      );
      const seqs = s.changes().map((f) => f.data.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(new Set(s.changes().map((f) => f.id)).size).toBe(seqs.length);
    } finally {
      s.close();
    }
  });

  it('gives 200 concurrent connections every event meant for them, in order', async () => {
    const people = await Promise.all(Array.from({ length: 4 }, () => newMember()));
    const actor = await newMember();
    const streams = await Promise.all(Array.from({ length: 200 }, (_, i) => openStream(people[i % 4].token)));
    try {
      await Promise.all(streams.map((s) => s.next((f) => f.event === 'ready')));
      // Three notifications per person, one after another (their seq order is their write order).
      const ids = await Promise.all(
        people.map(async (p) => {
          const mine: string[] = [];
          for (let n = 0; n < 3; n++) mine.push(...(await notifyComment(p.id, actor.id, `n${n}`)));
          return mine;
        }),
      );
      await Promise.all(
        streams.map((s, i) =>
          s.next(
            isChange('notification.created', (p) => p.notificationId === ids[i % 4][2]),
            30_000,
          ),
        ),
      );
      for (const [i, s] of streams.entries()) {
        const mine = s.changes().filter((f) => f.data.type === 'notification.created');
        expect(mine.map((f) => f.data.payload.notificationId)).toEqual(ids[i % 4]);
      }
    } finally {
      for (const s of streams) s.close();
    }
  });
});

describe('reconnecting', () => {
  it('replays the gap after Last-Event-ID, re-checking each event against the reader', async () => {
    const reader = await newMember();
    const stranger = await newMember();
    const actor = await newMember();
    const first = await openStream(reader.token);
    const ready = await first.next((f) => f.event === 'ready');
    first.close();
    // Watch the log from two other connections so we know the events landed before reconnecting.
    const watchReader = await openStream(reader.token);
    const watchStranger = await openStream(stranger.token);
    try {
      await Promise.all([watchReader.next((f) => f.event === 'ready'), watchStranger.next((f) => f.event === 'ready')]);
      const [strangers] = await notifyComment(stranger.id, actor.id);
      const [mine] = await notifyComment(reader.id, actor.id);
      await watchStranger.next(isChange('notification.created', (p) => p.notificationId === strangers));
      const live = await watchReader.next(isChange('notification.created', (p) => p.notificationId === mine));

      const again = await openStream(reader.token, ready.id);
      try {
        const replayed = await again.next(isChange('notification.created', (p) => p.notificationId === mine));
        expect(again.frames[0].event).toBe('ready');
        expect(replayed.id).toBe(live.id);
        expect(replayed.data).toEqual(live.data);
        expect(again.frames.some((f) => f.event === 'resync')).toBe(false);
        expect(again.frames.some((f) => f.data?.payload?.notificationId === strangers)).toBe(false);
      } finally {
        again.close();
      }
    } finally {
      watchReader.close();
      watchStranger.close();
    }
  });

  it('sends resync after ready for a malformed id, another epoch, or a seq ahead', async () => {
    const m = await newMember();
    for (const id of ['not-an-id', `${randomUUID()}:3`, null]) {
      let lastEventId = id;
      if (lastEventId === null) {
        const probe = await openStream(m.token);
        const ready = await probe.next((f) => f.event === 'ready');
        probe.close();
        lastEventId = `${ready.data.epoch}:999999999999`;
      }
      const s = await openStream(m.token, lastEventId);
      try {
        await s.next((f) => f.event === 'resync');
        expect(s.frames.map((f) => f.event).slice(0, 2)).toEqual(['ready', 'resync']);
      } finally {
        s.close();
      }
    }
  });
});
