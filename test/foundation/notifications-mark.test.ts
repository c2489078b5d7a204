import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportOf, postsShown } from '../../shared/data-rights/export.ts';
import { db } from '../../shared/db/client.ts';
import { Notification, NotificationCounter } from '../../shared/notifications/entities.ts';
import { markRead, notify } from '../../shared/notifications/notifications.ts';
import { notifyMany } from '../../shared/notifications/notify-many.ts';
import { api, newMember } from '../support/api.ts';
import { checkCounters } from '../support/counters.ts';

/** The DynamoDB requests `work` makes in this process, by command name. */
async function requestsOf(work: () => Promise<unknown>): Promise<string[]> {
  const send = vi.spyOn(db(), 'send');
  try {
    await work();
    return send.mock.calls.map(([command]: any[]) => command.constructor.name as string);
  } finally {
    send.mockRestore();
  }
}

const note = (recipientId: string, preview: string) => ({
  recipientId,
  kind: 'announcement' as const,
  actorId: null,
  preview,
});

const list = async (token: string) => (await api('GET', '/notifications?limit=50', { token })).body as any[];
const count = async (token: string) => (await api('GET', '/notifications/unread-count', { token })).body.count;

afterEach(() => vi.useRealTimers());

describe('mark all read: one read-up-to mark', () => {
  it('marks 500 unread notifications read with one read and one write, and the list and count honour it', async () => {
    const m = await newMember();
    for (let i = 0; i < 500; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, k) => notify([note(m.id, `n${i + k}`)])));
    expect(await count(m.token)).toBe(500);
    const before = Date.now();
    const requests = await requestsOf(() => markRead(m.id, undefined));
    expect(requests).toEqual(['GetCommand', 'TransactWriteCommand']);
    expect(await count(m.token)).toBe(0);
    const page = await list(m.token);
    expect(page).toHaveLength(50);
    const times = new Set(page.map((n) => n.readAt));
    expect(times.size).toBe(1);
    const [at] = [...times];
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(at)).toBeLessThanOrEqual(Date.now());
    // The person's export says the same as the list.
    const stored = await Notification.get({ recipientId: m.id, id: page[0].id }, { consistent: true });
    expect(stored?.readAt).toBeNull(); // nothing was written per notification
    expect((await exportOf(stored!, m.id, postsShown()))?.view.readAt).toBe(at);
    // Through HTTP too: the route answers 204 and stays bounded however many there are.
    expect((await api('POST', '/notifications/read', { token: m.token })).status).toBe(204);
    expect(await count(m.token)).toBe(0);
  });

  it('counts notifications after the mark as unread, and never counts a covered one down again', async () => {
    const m = await newMember();
    await notify([note(m.id, 'old1')]);
    await notify([note(m.id, 'old2')]);
    await api('POST', '/notifications/read', { token: m.token });
    const marked = await list(m.token);
    expect(marked.map((n) => n.readAt !== null)).toEqual([true, true]);
    const markTime = marked[0].readAt;

    await notify([note(m.id, 'new1')]);
    await notifyMany([note(m.id, 'new2')]);
    expect(await count(m.token)).toBe(2);
    const after = await list(m.token);
    expect(after.map((n) => [n.preview, n.readAt === null])).toEqual([
      ['new2', true],
      ['new1', true],
      ['old2', false],
      ['old1', false],
    ]);
    expect(after[2].readAt).toBe(markTime);

    // Marking a covered notification read again: no change, no count moved.
    expect((await api('POST', '/notifications/read', { token: m.token, body: { id: after[3].id } })).status).toBe(204);
    expect(await count(m.token)).toBe(2);
    expect((await list(m.token))[3].readAt).toBe(markTime);
    // Marking a new one read: counted down once, whatever the repeats.
    await Promise.all(
      [1, 2, 3].map(() => api('POST', '/notifications/read', { token: m.token, body: { id: after[0].id } })),
    );
    expect(await count(m.token)).toBe(1);
    expect((await NotificationCounter.get({ userId: m.id }, { consistent: true }))?.unread).toBe(1);

    // A second mark: everything read, the one read on its own keeps its time.
    const own = (await list(m.token))[0].readAt;
    await api('POST', '/notifications/read', { token: m.token });
    expect(await count(m.token)).toBe(0);
    const last = await list(m.token);
    expect(last.every((n) => n.readAt !== null)).toBe(true);
    expect(last[0].readAt).toBe(own);
    expect(last[1].readAt).not.toBe(markTime);
  });

  it('counts as unread a notification dated before the mark but recorded after it (late delivery, a clock behind)', async () => {
    const m = await newMember();
    await notify([note(m.id, 'before')]);
    await api('POST', '/notifications/read', { token: m.token });
    // A writer whose clock is a minute behind records two notifications after the mark.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 60_000 });
    await notify([note(m.id, 'late1')]);
    await notifyMany([note(m.id, 'late2')]);
    vi.useRealTimers();
    expect(await count(m.token)).toBe(2);
    const page = await list(m.token);
    const byPreview = Object.fromEntries(page.map((n) => [n.preview, n.readAt]));
    expect(byPreview.before).not.toBeNull();
    expect(byPreview.late1).toBeNull();
    expect(byPreview.late2).toBeNull();
    // Each can be read once; a later mark covers them.
    const late1 = page.find((n) => n.preview === 'late1');
    await api('POST', '/notifications/read', { token: m.token, body: { id: late1.id } });
    expect(await count(m.token)).toBe(1);
    await api('POST', '/notifications/read', { token: m.token });
    expect(await count(m.token)).toBe(0);
    expect((await list(m.token)).every((n) => n.readAt !== null)).toBe(true);
    // The stored count is what the stored items say (the counter check honours the mark).
    const partition = `NOTIF#${m.id}`;
    expect(await checkCounters({ within: (items) => items.filter((i) => i.pk === partition) })).toEqual([]);
  });
});
