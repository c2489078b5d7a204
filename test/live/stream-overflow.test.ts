import { describe, expect, it } from 'vitest';
import { getItem, write } from '../../shared/db/table.ts';
import { DomainError } from '../../shared/errors.ts';
import { StreamLeases } from '../../shared/live/entities.ts';
import { acquireStreamLease } from '../../shared/live/stream-leases.ts';
import { notify } from '../../shared/notifications/notifications.ts';
import { api, newMember } from '../support/api.ts';
import { refusalStatus } from '../support/refusal.ts';
import { isChange } from '../support/sse.ts';
import { openStream } from './sse-client.ts';

const openCount = async (userId: string) => (await getItem(StreamLeases.key(userId), true))?.open ?? 0;

async function eventually(check: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('stream slots per person', () => {
  it('answers 503 in the common body with Retry-After over the cap, and opens again once a slot frees', async () => {
    const m = await newMember();
    const cap = Number(process.env.LIVE_STREAMS_PER_PERSON);
    const held = await Promise.all(Array.from({ length: cap }, () => acquireStreamLease(m.id)));
    const refused = await api('GET', '/realtime/stream', { token: m.token });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    await held.pop()!.release();
    const s = await openStream(m.token);
    try {
      expect(s.status).toBe(200);
      await s.next((f) => f.event === 'ready');
    } finally {
      s.close();
      await Promise.all(held.map((l) => l.release()));
    }
    // The stream gives its slot back when the client leaves.
    await eventually(async () => (await openCount(m.id)) === 0);
  });

  it('frees the slot of a connection that stopped renewing (crashed) once its lease expired', async () => {
    const m = await newMember();
    await acquireStreamLease(m.id, 1); // never released: its execution "crashed"
    expect(await refusalStatus(acquireStreamLease(m.id, 1))).toBe(503);
    // Age the lease past its expiry.
    const item = (await getItem(StreamLeases.key(m.id), true))!;
    const [lease] = Object.keys(item).filter((k) => k.startsWith('lease_'));
    await write(
      StreamLeases.update([m.id], {
        UpdateExpression: 'SET #l = :past',
        ExpressionAttributeNames: { '#l': lease },
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    const next = await acquireStreamLease(m.id, 1);
    expect(await openCount(m.id)).toBe(1);
    await next.release();
    expect(await openCount(m.id)).toBe(0);
    await expect(acquireStreamLease(m.id, 0)).rejects.toBeInstanceOf(DomainError);
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
