import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { write } from '../../shared/db/table.ts';
import { StreamLeases } from '../../shared/live/entities.ts';
import { acquireStreamLease } from '../../shared/live/stream-leases.ts';
import { notify } from '../../shared/notifications/notifications.ts';
import { api, newMember } from '../support/api.ts';
import { isChange } from '../support/sse.ts';
import { openStream } from './sse-client.ts';

const leasesOf = async (userId: string) =>
  Object.keys((await StreamLeases.get({ userId }, { consistent: true }))?.leases ?? {});

async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('stream slots per person', () => {
  it('over the cap ends the oldest stream at its next poll instead of refusing the new one', async () => {
    const m = await newMember();
    const cap = Number(process.env.LIVE_STREAMS_PER_PERSON);
    const oldest = await openStream(m.token);
    try {
      await oldest.next((f) => f.event === 'ready');
      // The other slots taken by executions that keep renewing (orphans, other tabs): the cap is full.
      const held = await Promise.all(Array.from({ length: cap - 1 }, () => acquireStreamLease(m.id)));
      expect(await leasesOf(m.id)).toHaveLength(cap);
      const s = await openStream(m.token);
      try {
        expect(s.status).toBe(200);
        await s.next((f) => f.event === 'ready');
        // The oldest stream learns at its next poll (LIVE_POLL_MS, jittered) and ends; its last frame
        // asks the client to wait before reconnecting.
        await eventually(() => oldest.ended, 5_000);
        const last = oldest.frames.at(-1)!;
        expect(last.event).toBe('ping');
        expect(s.ended).toBe(false);
        expect(await leasesOf(m.id)).toHaveLength(cap);
      } finally {
        s.close();
        await Promise.all(held.map((l) => l.release()));
      }
    } finally {
      oldest.close();
    }
  });

  it('a new stream of the same tab (clientId) ends the old one; two tabs of one cookie keep theirs', async () => {
    const m = await newMember();
    const actor = await newMember();
    const [tabA, tabB] = [randomUUID(), randomUUID()];
    const a1 = await openStream(m.token, undefined, tabA);
    const b = await openStream(m.token, undefined, tabB);
    const plain = await openStream(m.token);
    try {
      await Promise.all([a1, b, plain].map((s) => s.next((f) => f.event === 'ready')));
      // Tab A reloads: its old connection is not closed by the client (deployed, nothing would tell it).
      const a2 = await openStream(m.token, undefined, tabA);
      try {
        await a2.next((f) => f.event === 'ready');
        await eventually(() => a1.ended, 5_000);
        const [id] = await notify([
          { recipientId: m.id, kind: 'comment', actorId: actor.id, postId: 'p', preview: 'x' },
        ]);
        for (const s of [a2, b, plain]) await s.next(isChange('notification.created', (p) => p.notificationId === id));
        expect([a2.ended, b.ended, plain.ended]).toEqual([false, false, false]);
        expect(await leasesOf(m.id)).toHaveLength(3);
      } finally {
        a2.close();
      }
    } finally {
      for (const s of [a1, b, plain]) s.close();
    }
  });

  it('rejects a malformed clientId (400)', async () => {
    const m = await newMember();
    const bad = await api('GET', '/realtime/stream?clientId=has%20space', { token: m.token });
    expect(bad.status).toBe(400);
  });

  it('drops an expired lease (its execution crashed) rather than evicting a live one', async () => {
    const m = await newMember();
    const crashed = await acquireStreamLease(m.id, { cap: 2 }); // never released nor renewed
    const live = await acquireStreamLease(m.id, { cap: 2 });
    await write(
      StreamLeases.update(
        { userId: m.id },
        {
          UpdateExpression: 'SET #l.#id.#exp = :past',
          ExpressionAttributeNames: { '#l': 'leases', '#id': crashed.id, '#exp': 'exp' },
          ExpressionAttributeValues: { ':past': Date.now() - 1 },
        },
      ),
    );
    const next = await acquireStreamLease(m.id, { cap: 2 });
    expect(next.took).toEqual({ replaced: 0, evicted: 0, expired: 1 });
    expect((await leasesOf(m.id)).sort()).toEqual([live.id, next.id].sort());
    expect(await live.stillHeld()).toBe(true);
    expect(await crashed.stillHeld()).toBe(false);
    await Promise.all([live.release(), next.release()]);
    expect(await leasesOf(m.id)).toEqual([]);
  });

  it('ignores lease items of the former layout under USER#', async () => {
    const m = await newMember();
    const old = { pk: `USER#${m.id}`, sk: StreamLeases.key({ userId: m.id }).sk };
    await write(
      StreamLeases.updateStored(old, {
        UpdateExpression: 'SET #open = :cap, entity = :e',
        ExpressionAttributeNames: { '#open': 'open' },
        ExpressionAttributeValues: { ':cap': 1000, ':e': 'StreamLeases' },
      }),
    );
    const s = await openStream(m.token);
    try {
      expect(s.status).toBe(200);
      await s.next((f) => f.event === 'ready');
    } finally {
      s.close();
    }
  });
});

describe('change frame time', () => {
  it("is the item's own time, to the millisecond", async () => {
    const m = await newMember();
    const s = await openStream(m.token);
    try {
      await s.next((f) => f.event === 'ready');
      const [id] = await notify([{ recipientId: m.id, kind: 'comment', actorId: null, postId: 'p1', preview: 'at' }]);
      const frame = await s.next(isChange('notification.created', (p) => p.notificationId === id));
      const list = await api('GET', '/notifications', { token: m.token });
      const stored = list.body.find((n: { id: string }) => n.id === id);
      expect(frame.data.at).toBe(stored.createdAt);
    } finally {
      s.close();
    }
  });
});
