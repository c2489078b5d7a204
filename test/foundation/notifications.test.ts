import { describe, expect, it } from 'vitest';
import { listNotifications, markRead, notify, unreadCount } from '../../shared/notifications/notifications.ts';
import { api, newMember } from '../support/api.ts';

describe('notifications core', () => {
  it('lists newest first with the actor resolved and counts unread ones with a counter', async () => {
    const m = await newMember();
    const actor = await newMember();
    await notify([{ recipientId: m.id, kind: 'comment', actorId: actor.id, postId: 'p1', preview: 'first' }]);
    await notify([{ recipientId: m.id, kind: 'reaction', actorId: actor.id, postId: 'p1', preview: 'second' }]);
    const list = await api('GET', '/notifications', { token: m.token });
    expect(list.status).toBe(200);
    expect(list.body.map((n: any) => n.preview)).toEqual(['second', 'first']);
    expect(list.body[0].actor).toMatchObject({ id: actor.id, name: actor.name });
    expect((await api('GET', '/notifications/unread-count', { token: m.token })).body).toEqual({ count: 2 });
  });

  it('never notifies people of their own action', async () => {
    const m = await newMember();
    await notify([{ recipientId: m.id, kind: 'comment', actorId: m.id, preview: 'mine' }]);
    expect(await unreadCount(m.id)).toBe(0);
  });

  it('marks one read idempotently, then all, keeping the count exact under concurrency', async () => {
    const m = await newMember();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        notify([{ recipientId: m.id, kind: 'announcement', actorId: null, preview: `n${i}` }]),
      ),
    );
    expect(await unreadCount(m.id)).toBe(30);
    const [first] = await listNotifications(m.id, 1);
    await Promise.all([markRead(m.id, first.id), markRead(m.id, first.id), markRead(m.id, first.id)]);
    expect(await unreadCount(m.id)).toBe(29);
    await Promise.all([
      api('POST', '/notifications/read', { token: m.token }),
      api('POST', '/notifications/read', { token: m.token, body: {} }),
    ]);
    expect(await unreadCount(m.id)).toBe(0);
    expect((await listNotifications(m.id, 50)).every((n) => n.readAt !== null)).toBe(true);
  });

  it('answers 404 for a notification that is not the caller’s and 400 for a bad limit', async () => {
    const m = await newMember();
    expect((await api('POST', '/notifications/read', { token: m.token, body: { id: 'nope' } })).status).toBe(404);
    expect((await api('GET', '/notifications?limit=abc', { token: m.token })).status).toBe(400);
  });
});
