import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../shared/auth/entities.ts';
import { hashToken } from '../../shared/auth/tokens.ts';
import { db, tableName } from '../../shared/db/client.ts';
import type { EntityFields } from '../../shared/db/entity.ts';
import { getItem, write } from '../../shared/db/table.ts';
import { notify } from '../../shared/notifications/notifications.ts';
import { deliverPush } from '../../shared/push/delivery.ts';
import { PushToken } from '../../shared/push/entities.ts';
import { setPushEnabled } from '../../shared/push/preferences.ts';
import { activePushTokens, registerPushToken, retirePushToken } from '../../shared/push/tokens.ts';
import {
  type PushMessage,
  type PushTarget,
  type PushTransport,
  setPushTransport,
} from '../../shared/transports/push.ts';
import { admin, api, newMember, signIn } from '../support/api.ts';

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
    await registerPushToken(to.id, hashToken(to.token), { token: token(), platform: 'ios' });
    await registerPushToken(to.id, hashToken(to.token), { token: token() });
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
    await registerPushToken(to.id, hashToken(to.token), { token: token(), platform: 'android' });
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
    await registerPushToken(to.id, hashToken(to.token), { token: t, platform: 'android' });
    const arn = (await getItem(PushToken.key({ tokenHash: hashToken(t) })))!.endpointArn;
    dead.add(arn);
    await deliverPush([{ recipientId: to.id, kind: 'comment', actorId: null, postId: 'p', preview: 'x' }]);
    expect(sent).toHaveLength(1);
    expect((await getItem(PushToken.key({ tokenHash: hashToken(t) }), true))!.disabledAt).toBeTruthy();
    expect(await activePushTokens(to.id)).toHaveLength(0);
    await deliverPush([{ recipientId: to.id, kind: 'comment', actorId: null, postId: 'p', preview: 'y' }]);
    expect(sent).toHaveLength(1);
    // Registering the token again brings it back.
    await registerPushToken(to.id, hashToken(to.token), { token: t, platform: 'android' });
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
    await registerPushToken(to.id, hashToken(to.token), { token: token() });
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
    await registerPushToken(a.id, hashToken(a.token), { token: ta });
    await registerPushToken(b.id, hashToken(b.token), { token: tb });
    // b names a's token as their previous one: a keeps it.
    await registerPushToken(b.id, hashToken(b.token), { token: token(), previousToken: ta });
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
    await registerPushToken(a.id, hashToken(a.token), { token: t, platform: 'android', userAgent: 'app/1' });
    await registerPushToken(b.id, hashToken(b.token), { token: t, platform: 'android' });
    expect(await activePushTokens(a.id)).toHaveLength(0);
    const item = (await getItem(PushToken.key({ tokenHash: hashToken(t) }), true))!;
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

describe('push outlives no access: only registrations of a live session of an active person', () => {
  const ping = (recipientId: string) =>
    deliverPush([{ recipientId, kind: 'comment', actorId: null, postId: 'p', preview: 'secret preview' }]);
  const registered = async (t: string) => getItem(PushToken.key({ tokenHash: hashToken(t) }), true);

  it('stops pushing to a lost phone once its session is revoked from another device, and removes it', async () => {
    const { transport, sent } = recordingTransport();
    setPushTransport(transport);
    const m = await newMember();
    const laptop = await signIn(m.email, 'test-password-1');
    const phoneToken = token();
    const laptopToken = token();
    await registerPushToken(m.id, hashToken(m.token), { token: phoneToken, platform: 'ios' });
    await registerPushToken(m.id, hashToken(laptop.token), { token: laptopToken });
    await ping(m.id);
    expect(sent).toHaveLength(2);
    const sessions = (await api('GET', '/auth/list-sessions', { token: laptop.token })).body as any[];
    const phone = sessions.find((s) => !s.current)!;
    expect(
      (await api('POST', '/auth/revoke-session', { token: laptop.token, body: { token: phone.token } })).status,
    ).toBe(200);
    sent.length = 0;
    await ping(m.id);
    expect(sent.map((s) => s.target.platform)).toEqual(['web']);
    expect(await registered(phoneToken)).toBeUndefined();
    expect(await registered(laptopToken)).toBeDefined();
  });

  it('stops at sign-out, at expiry and when a password change ends the other sessions', async () => {
    const { transport, sent } = recordingTransport();
    setPushTransport(transport);
    const m = await newMember();
    const expiring = await signIn(m.email, 'test-password-1');
    const other = await signIn(m.email, 'test-password-1');
    const [t1, t2, t3] = [token(), token(), token()];
    await registerPushToken(m.id, hashToken(m.token), { token: t1 });
    await registerPushToken(m.id, hashToken(expiring.token), { token: t2 });
    await registerPushToken(m.id, hashToken(other.token), { token: t3 });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: Session.key({ tokenHash: hashToken(expiring.token) }),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expect((await api('POST', '/auth/sign-out', { token: m.token, body: {} })).status).toBe(200);
    await ping(m.id);
    expect(sent.map((s) => s.target.userId)).toEqual([m.id]);
    expect(await registered(t1)).toBeUndefined();
    expect(await registered(t2)).toBeUndefined();
    // A password change that ends the other sessions (rotation) ends push to their devices too.
    const fresh = await signIn(m.email, 'test-password-1');
    const changed = await api('POST', '/auth/change-password', {
      token: fresh.token,
      body: { currentPassword: 'test-password-1', newPassword: 'test-password-2', revokeOtherSessions: true },
    });
    expect(changed.status).toBe(200);
    sent.length = 0;
    await ping(m.id);
    expect(sent).toHaveLength(0);
    expect(await registered(t3)).toBeUndefined();
  });

  it('stops when the person is deactivated, and does not come back on reactivation', async () => {
    const { transport, sent } = recordingTransport();
    setPushTransport(transport);
    const m = await newMember();
    const t = token();
    await registerPushToken(m.id, hashToken(m.token), { token: t, platform: 'android' });
    const a = await admin();
    expect(
      (await api('PATCH', `/admin/members/${m.id}/status`, { token: a.token, body: { status: 'deactivated' } })).status,
    ).toBe(200);
    await ping(m.id);
    expect(sent).toHaveLength(0);
    expect(await registered(t)).toBeUndefined();
    expect(
      (await api('PATCH', `/admin/members/${m.id}/status`, { token: a.token, body: { status: 'active' } })).status,
    ).toBe(200);
    await ping(m.id);
    expect(sent).toHaveLength(0);
  });

  it('removes a registration stored before sessions were recorded instead of pushing to it', async () => {
    const { transport, sent } = recordingTransport();
    setPushTransport(transport);
    const m = await newMember();
    const t = token();
    const now = new Date().toISOString();
    // The stored form before the session was recorded: no sessionTokenHash.
    await write(
      PushToken.put({
        tokenHash: hashToken(t),
        userId: m.id,
        platform: 'web',
        userAgent: null,
        endpointArn: 'arn:endpoint/web/legacy',
        createdAt: now,
        updatedAt: now,
        actorId: m.id,
      } as EntityFields<typeof PushToken>),
    );
    expect(await activePushTokens(m.id)).toHaveLength(1);
    await ping(m.id);
    expect(sent).toHaveLength(0);
    expect(await registered(t)).toBeUndefined();
    // Registering again from the live session brings push back.
    await registerPushToken(m.id, hashToken(m.token), { token: t });
    await ping(m.id);
    expect(sent).toHaveLength(1);
  });

  it('answers through the API: a registration made with a session stops when that session signs out', async () => {
    const { transport, sent } = recordingTransport();
    setPushTransport(transport);
    const m = await newMember();
    expect((await api('POST', '/push/tokens', { token: m.token, body: { token: token() } })).status).toBe(204);
    await ping(m.id);
    expect(sent).toHaveLength(1);
    expect((await api('POST', '/auth/sign-out', { token: m.token, body: {} })).status).toBe(200);
    await ping(m.id);
    expect(sent).toHaveLength(1);
    expect(await activePushTokens(m.id)).toHaveLength(0);
  });
});
