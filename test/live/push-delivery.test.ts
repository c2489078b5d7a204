import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../shared/auth/tokens.ts';
import { pushTokenKey } from '../../shared/db/keys.ts';
import { getItem } from '../../shared/db/table.ts';
import { notify } from '../../shared/notifications/notifications.ts';
import { deliverPush } from '../../shared/push/delivery.ts';
import { setPushEnabled } from '../../shared/push/preferences.ts';
import { activePushTokens, registerPushToken, retirePushToken } from '../../shared/push/tokens.ts';
import {
  type PushMessage,
  type PushTarget,
  type PushTransport,
  setPushTransport,
} from '../../shared/transports/push.ts';
import { api, newMember } from '../support/api.ts';

/** A transport that records what it is asked and answers `gone` for chosen endpoints. */
function recordingTransport() {
  const sent: { target: PushTarget; message: PushMessage }[] = [];
  const dead = new Set<string>();
  let n = 0;
  const transport: PushTransport = {
    async register(r) {
      return r.endpointArn ?? `arn:endpoint/${r.platform}/${++n}`;
    },
    async unregister() {},
    async send(target, message) {
      sent.push({ target, message });
      return dead.has(target.endpointArn ?? '') ? 'gone' : 'sent';
    },
  };
  return { transport, sent, dead };
}

const token = () => `tok-${randomUUID()}`;

afterEach(() => setPushTransport(undefined));

describe('push delivery rules', () => {
  it('pushes the push kinds only, with title, body, link and kind, to every enabled registration', async () => {
    const { transport, sent } = recordingTransport();
    setPushTransport(transport);
    const [to, actor] = await Promise.all([newMember(), newMember()]);
    await registerPushToken(to.id, { token: token(), platform: 'ios' });
    await registerPushToken(to.id, { token: token() });
    await notify([
      { recipientId: to.id, kind: 'mention', actorId: actor.id, postId: 'p1', preview: 'hi @you' },
      { recipientId: to.id, kind: 'meeting', actorId: actor.id, preview: 'a meeting' },
      { recipientId: to.id, kind: 'poll_closed', actorId: null, postId: 'p2', preview: 'Lunch?' },
    ]);
    expect(sent.map((s) => s.message.kind).sort()).toEqual(['mention', 'mention', 'poll_closed', 'poll_closed']);
    const mention = sent.find((s) => s.message.kind === 'mention')!.message;
    expect(mention).toEqual({
      title: `${actor.name} mentioned you`,
      body: 'hi @you',
      link: '/feed#post-p1',
      kind: 'mention',
    });
    expect(new Set(sent.map((s) => s.target.platform))).toEqual(new Set(['ios', 'web']));
  });

  it('stops delivery while pushEnabled is false and resumes without registering again', async () => {
    const { transport, sent } = recordingTransport();
    setPushTransport(transport);
    const to = await newMember();
    await registerPushToken(to.id, { token: token(), platform: 'android' });
    await setPushEnabled(to.id, false);
    await deliverPush([{ recipientId: to.id, kind: 'reaction', actorId: null, postId: 'p', preview: 'x' }]);
    expect(sent).toHaveLength(0);
    await setPushEnabled(to.id, true);
    await deliverPush([{ recipientId: to.id, kind: 'reaction', actorId: null, postId: 'p', preview: 'x' }]);
    expect(sent).toHaveLength(1);
  });

  it('disables a dead endpoint and never tries it again', async () => {
    const { transport, sent, dead } = recordingTransport();
    setPushTransport(transport);
    const to = await newMember();
    const t = token();
    await registerPushToken(to.id, { token: t, platform: 'android' });
    const arn = (await getItem(pushTokenKey(hashToken(t))))!.endpointArn;
    dead.add(arn);
    await deliverPush([{ recipientId: to.id, kind: 'comment', actorId: null, postId: 'p', preview: 'x' }]);
    expect(sent).toHaveLength(1);
    expect((await getItem(pushTokenKey(hashToken(t)), true))!.disabledAt).toBeTruthy();
    expect(await activePushTokens(to.id)).toHaveLength(0);
    await deliverPush([{ recipientId: to.id, kind: 'comment', actorId: null, postId: 'p', preview: 'y' }]);
    expect(sent).toHaveLength(1);
    // Registering the token again brings it back.
    await registerPushToken(to.id, { token: t, platform: 'android' });
    expect(await activePushTokens(to.id)).toHaveLength(1);
  });

  it('never fails the caller when delivery fails', async () => {
    setPushTransport({
      register: async () => null,
      unregister: async () => {},
      send: async () => {
        throw new Error('network down');
      },
    });
    const to = await newMember();
    await registerPushToken(to.id, { token: token() });
    await expect(
      deliverPush([{ recipientId: to.id, kind: 'mention', actorId: null, preview: 'x' }]),
    ).resolves.toBeUndefined();
  });
});

describe('push registrations', () => {
  it('retires previousToken only when it was the caller’s, and DELETE removes only the caller’s', async () => {
    const [a, b] = await Promise.all([newMember(), newMember()]);
    const ta = token();
    const tb = token();
    await registerPushToken(a.id, { token: ta });
    await registerPushToken(b.id, { token: tb });
    // b names a's token as their previous one: a keeps it.
    await registerPushToken(b.id, { token: token(), previousToken: ta });
    expect((await activePushTokens(a.id)).length).toBe(1);
    expect((await api('DELETE', `/push/tokens/${encodeURIComponent(ta)}`, { token: b.token })).status).toBe(204);
    expect((await activePushTokens(a.id)).length).toBe(1);
    // b rotates their own token: the old one goes.
    const rotated = token();
    expect(
      (
        await api('POST', '/push/tokens', {
          token: b.token,
          body: { token: rotated, previousToken: tb, platform: 'ios' },
        })
      ).status,
    ).toBe(204);
    const bTokens = await activePushTokens(b.id);
    expect(bTokens.map((t) => t.tokenHash)).not.toContain(hashToken(tb));
    expect(bTokens.map((t) => t.tokenHash)).toContain(hashToken(rotated));
    expect((await api('DELETE', `/push/tokens/${encodeURIComponent(ta)}`, { token: a.token })).status).toBe(204);
    expect(await activePushTokens(a.id)).toHaveLength(0);
  });

  it('moves a token registered again by somebody else (a shared device) and stores no raw token', async () => {
    const [a, b] = await Promise.all([newMember(), newMember()]);
    const t = token();
    await registerPushToken(a.id, { token: t, platform: 'android', userAgent: 'app/1' });
    await registerPushToken(b.id, { token: t, platform: 'android' });
    expect(await activePushTokens(a.id)).toHaveLength(0);
    const item = (await getItem(pushTokenKey(hashToken(t)), true))!;
    expect(item.userId).toBe(b.id);
    expect(JSON.stringify(item)).not.toContain(t);
    await retirePushToken(a.id, t); // no longer a's: nothing happens
    expect(await activePushTokens(b.id)).toHaveLength(1);
  });

  it('records every local delivery attempt in the outbox as channel push, to the user id', async () => {
    const [to, actor] = await Promise.all([newMember(), newMember()]);
    expect(
      (await api('POST', '/push/tokens', { token: to.token, body: { token: token(), platform: 'android' } })).status,
    ).toBe(204);
    await notify([{ recipientId: to.id, kind: 'recognition', actorId: actor.id, postId: 'p9', preview: 'Thanks!' }]);
    const box = await api('GET', `/_local/outbox?to=${to.id}&channel=push`);
    expect(box.body[0]).toMatchObject({
      channel: 'push',
      to: to.id,
      title: `${actor.name} recognised you`,
      body: 'Thanks!',
      link: '/feed#post-p9',
      kind: 'recognition',
      data: { title: `${actor.name} recognised you`, body: 'Thanks!', link: '/feed#post-p9', kind: 'recognition' },
    });
  });

  it('keeps preferences per person, true by default', async () => {
    const m = await newMember();
    expect((await api('GET', '/notifications/preferences', { token: m.token })).body).toEqual({ pushEnabled: true });
    expect(
      (await api('POST', '/notifications/preferences', { token: m.token, body: { pushEnabled: 'no' } })).status,
    ).toBe(400);
    expect(
      (await api('POST', '/notifications/preferences', { token: m.token, body: { pushEnabled: false } })).status,
    ).toBe(204);
    expect((await api('GET', '/notifications/preferences', { token: m.token })).body).toEqual({ pushEnabled: false });
  });
});
