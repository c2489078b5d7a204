import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildEvent, lambdaContext } from '../../infra/local/event.ts';
import { defineRoute } from '../../shared/api/route-def.ts';
import { IdempotencyRecord } from '../../shared/db/idempotency-record.ts';
import { getItem } from '../../shared/db/table.ts';
import { ANON_ATTRIBUTE } from '../../shared/db/table-definition.ts';
import { conflict } from '../../shared/errors.ts';
import { REPLAYED_HEADER } from '../../shared/http/idempotency.ts';
import { idempotencyKeyTag } from '../../shared/http/idempotency-keys.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';
import * as z from '../../shared/util/zod.ts';
import { form, image } from '../feed/helpers.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';

const withKey = (key: string) => ({ 'idempotency-key': key });
const recordOf = (userId: string, key: string) =>
  getItem(IdempotencyRecord.key({ keyTag: idempotencyKeyTag(userId, key) }), true);

async function postsBy(token: string, authorId: string): Promise<any[]> {
  const res = await api('GET', `/posts?authorId=${authorId}&limit=50`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

describe('Idempotency-Key over HTTP', () => {
  it('replays the first answer to a retry with the same key and body, creating one post', async () => {
    const m = await newMember();
    const key = randomUUID();
    const closesAt = new Date(Date.now() + 3600e3).toISOString();
    const body = { content: `Once only ${uniq()}`, poll: { question: 'Which?', options: ['a', 'b'], closesAt } };
    const first = await api('POST', '/posts', { token: m.token, body, headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get(REPLAYED_HEADER)).toBeNull();
    // The same body with its fields in another order and another header case is the same request.
    const reordered = { poll: { closesAt, options: ['a', 'b'], question: 'Which?' }, content: body.content };
    const again = await api('POST', '/posts', {
      token: m.token,
      raw: JSON.stringify(reordered),
      headers: { 'Idempotency-Key': key, 'content-type': 'application/json' },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get(REPLAYED_HEADER)).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body).toEqual(first.body);
    expect((await postsBy(m.token, m.id)).map((p) => p.id)).toEqual([first.body.id]);
  });

  it('stores the first outcome with a TTL of about 24 hours', async () => {
    const m = await newMember();
    const key = randomUUID();
    const res = await api('POST', '/events', {
      token: m.token,
      body: { title: `Event ${uniq()}`, startsAt: new Date(Date.now() + 3600e3).toISOString() },
      headers: withKey(key),
    });
    expect(res.status, res.text).toBe(201);
    const record = await recordOf(m.id, key);
    expect(record).toMatchObject({ status: 'COMPLETED', entity: 'IdempotencyRecord' });
    const inADay = Date.now() / 1000 + 24 * 3600;
    expect(Math.abs(record!.ttl - inADay)).toBeLessThan(120);
    expect(JSON.parse(record!.response.body).id).toBe(res.body.id);
    // A non-anonymous route's record is not marked anonymous; it never names the caller in clear.
    expect(record![ANON_ATTRIBUTE]).toBeUndefined();
    expect(record!.pk).not.toContain(m.id);
  });

  it('answers 422 when the key comes back with another body or on another path', async () => {
    const m = await newMember();
    const key = randomUUID();
    const first = await api('POST', '/posts', { token: m.token, body: { content: 'First' }, headers: withKey(key) });
    expect(first.status).toBe(201);
    const otherBody = await api('POST', '/posts', {
      token: m.token,
      body: { content: 'Second' },
      headers: withKey(key),
    });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({ statusCode: 422, error: 'Unprocessable Content' });
    expect(otherBody.body.message).toContain('Idempotency-Key');
    const otherPath = await api('POST', `/posts/${first.body.id}/comments`, {
      token: m.token,
      body: { content: 'First' },
      headers: withKey(key),
    });
    expect(otherPath.status).toBe(422);
    expect((await postsBy(m.token, m.id)).length).toBe(1);
  });

  it('keeps keys per person: the same key from somebody else is an independent request', async () => {
    const [a, b] = await Promise.all([newMember(), newMember()]);
    const key = `shared-${uniq()}`;
    const body = { content: 'Same words, two people' };
    const fromA = await api('POST', '/posts', { token: a.token, body, headers: withKey(key) });
    const fromB = await api('POST', '/posts', { token: b.token, body, headers: withKey(key) });
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromB.headers.get(REPLAYED_HEADER)).toBeNull();
    expect(fromB.body.id).not.toBe(fromA.body.id);
    expect(fromB.body.author.id).toBe(b.id);
  });

  it('changes nothing without the header: two identical requests create two posts', async () => {
    const m = await newMember();
    const body = { content: 'No key, no dedup' };
    const one = await api('POST', '/posts', { token: m.token, body });
    const two = await api('POST', '/posts', { token: m.token, body });
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.body.id).not.toBe(two.body.id);
    expect((await postsBy(m.token, m.id)).length).toBe(2);
  });

  it('refuses a malformed key with 400 before doing anything', async () => {
    const m = await newMember();
    for (const key of ['', 'x'.repeat(256), 'tab\tinside']) {
      const res = await api('POST', '/posts', { token: m.token, body: { content: 'Bad key' }, headers: withKey(key) });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.statusCode).toBe(400);
    }
    expect(await postsBy(m.token, m.id)).toEqual([]);
    const longest = await api('POST', '/posts', {
      token: m.token,
      body: { content: 'Longest key' },
      headers: withKey('k'.repeat(255)),
    });
    expect(longest.status).toBe(201);
  });

  it('keeps no error: a refused request leaves no record and runs again on retry', async () => {
    const m = await newMember();
    const key = randomUUID();
    const path = `/posts/missing-${uniq()}/comments`;
    for (let i = 0; i < 2; i++) {
      const res = await api('POST', path, { token: m.token, body: { content: 'Hello' }, headers: withKey(key) });
      expect(res.status).toBe(404);
      expect(res.headers.get(REPLAYED_HEADER)).toBeNull();
    }
    expect(await recordOf(m.id, key)).toBeUndefined();
  });

  it('replays an upload although the retry is encoded with another multipart boundary', async () => {
    const m = await newMember();
    const key = randomUUID();
    const bytes = await image(40, 30);
    const first = await api('POST', '/files/posts', {
      token: m.token,
      raw: form(bytes, 'a.png', 'image/png'),
      headers: withKey(key),
    });
    expect(first.status, first.text).toBe(201);
    const again = await api('POST', '/files/posts', {
      token: m.token,
      raw: form(bytes, 'a.png', 'image/png'),
      headers: withKey(key),
    });
    expect(again.status).toBe(201);
    expect(again.headers.get(REPLAYED_HEADER)).toBe('true');
    expect(again.body.path).toBe(first.body.path);
    const otherFile = await api('POST', '/files/posts', {
      token: m.token,
      raw: form(await image(41, 30), 'a.png', 'image/png'),
      headers: withKey(key),
    });
    expect(otherFile.status).toBe(422);
  });

  it('keeps a grievance retry anonymous: one grievance, and a record that names nobody', async () => {
    const m = await newMember();
    const key = randomUUID();
    const subject = `Idempotent grievance ${uniq()}`;
    const body = { subject, description: 'A description that is long enough.', category: 'other' };
    const first = await api('POST', '/grievances', { token: m.token, body, headers: withKey(key) });
    const again = await api('POST', '/grievances', { token: m.token, body, headers: withKey(key) });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    const board = await api('GET', '/grievances?limit=50', { token: m.token });
    expect(board.body.items.filter((g: any) => g.subject === subject).length).toBe(1);

    const record = await recordOf(m.id, key);
    expect(record?.[ANON_ATTRIBUTE]).toBe(true); // kept out of the change feed like every grievance item
    const text = JSON.stringify(record);
    // Its answer is sealed: the record names neither the person nor the grievance.
    for (const clear of [m.id, m.email, m.name, key, first.body.id, subject]) expect(text).not.toContain(clear);
  });

  it('makes the member, team, meeting, comment, share and grievance reply routes idempotent too', async () => {
    const a = await admin();
    const m = await newMember();
    const post = await api('POST', '/posts', { token: m.token, body: { content: 'Base post' } });
    const grievance = await api('POST', '/grievances', {
      token: m.token,
      body: { subject: 'Base grievance', description: 'A description that is long enough.', category: 'other' },
    });
    const tag = uniq();
    const cases: [string, string, string, unknown][] = [
      [
        a.token,
        'POST',
        '/admin/members',
        { name: `N ${tag}`, email: `idem-${tag}@example.com`, password: 'long-enough-1' },
      ],
      [a.token, 'POST', '/teams', { name: `Team ${tag}` }],
      [m.token, 'POST', `/posts/${post.body.id}/comments`, { content: 'A comment' }],
      [m.token, 'POST', `/posts/${post.body.id}/share`, { content: 'A share' }],
      [m.token, 'POST', `/grievances/${grievance.body.id}/replies`, { body: 'A reply' }],
      [
        m.token,
        'POST',
        '/meetings',
        {
          topic: `Sync ${tag}`,
          description: '',
          startsAt: new Date(Date.now() + 3600e3).toISOString(),
          endsAt: new Date(Date.now() + 7200e3).toISOString(),
          type: 'internal',
          meetLink: 'https://meet.example.com/sync',
        },
      ],
    ];
    for (const [token, method, path, body] of cases) {
      const key = randomUUID();
      const first = await api(method, path, { token, body, headers: withKey(key) });
      expect(first.status, `${path}: ${first.text}`).toBeLessThan(300);
      const again = await api(method, path, { token, body, headers: withKey(key) });
      expect(again.status, path).toBe(first.status);
      expect(again.headers.get(REPLAYED_HEADER), path).toBe('true');
      expect(again.text, path).toBe(first.text);
    }
  });
});

describe('Idempotency-Key while the first request runs', () => {
  // A route of this test's own whose work waits for a gate the test opens: the first request is
  // deterministically in progress while the retry arrives.
  const slow = defineRoute({
    name: 'test-slow-create',
    area: 'test',
    method: 'POST',
    path: '/api/v1/test/slow-create',
    auth: 'session',
    summary: 'Test only',
    body: z.strictObject({ n: z.number() }),
    status: 201,
    response: z.object({ id: z.string(), n: z.number() }),
    idempotent: true,
  });

  function gated(work: (n: number) => Promise<void> = async () => undefined) {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    let runs = 0;
    const handler = idempotentRoute(slow, async (req) => {
      runs++;
      started();
      await gate;
      await work(req.body.n);
      return { id: randomUUID(), n: req.body.n };
    });
    return { handler, open, running, runs: () => runs };
  }

  const call = (handler: ReturnType<typeof idempotentRoute>, token: string, key: string, n: number) => {
    const body = Buffer.from(JSON.stringify({ n }));
    const event = buildEvent(
      {
        method: 'POST',
        url: slow.path,
        httpVersion: '1.1',
        rawHeaders: ['authorization', `Bearer ${token}`, 'content-type', 'application/json', 'Idempotency-Key', key],
        headers: {},
        socket: { remoteAddress: '127.0.0.1' },
      } as never,
      body,
      null,
    );
    return handler(event, lambdaContext(slow.name));
  };

  it('answers 409 to a retry while the first is in progress, then replays its answer', async () => {
    const m = await newMember();
    const key = randomUUID();
    const { handler, open, running, runs } = gated();
    const first = call(handler, m.token, key, 1);
    await running;
    const during = await call(handler, m.token, key, 1);
    expect(during.statusCode).toBe(409);
    expect(JSON.parse(during.body!)).toMatchObject({ statusCode: 409, error: 'Conflict' });
    const inProgress = await recordOf(m.id, key);
    expect(inProgress?.status).toBe('INPROGRESS');
    // In progress at most until the function's deadline (29 s locally), after which a retry may run.
    expect(inProgress?.inProgressUntil).toBeGreaterThan(Date.now());
    expect(inProgress?.inProgressUntil).toBeLessThanOrEqual(Date.now() + 29_000);
    open();
    const done = await first;
    expect(done.statusCode).toBe(201);
    const after = await call(handler, m.token, key, 1);
    expect(after.statusCode).toBe(201);
    expect(after.headers?.[REPLAYED_HEADER]).toBe('true');
    expect(after.body).toBe(done.body);
    expect(runs()).toBe(1);
  });

  it('forgets a run that failed, so the retry runs again', async () => {
    const m = await newMember();
    const key = randomUUID();
    let failures = 1;
    const { handler, open, runs } = gated(async () => {
      if (failures-- > 0) throw conflict('Not this time.');
    });
    open();
    expect((await call(handler, m.token, key, 2)).statusCode).toBe(409);
    const retry = await call(handler, m.token, key, 2);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers?.[REPLAYED_HEADER]).toBeUndefined();
    expect(runs()).toBe(2);
  });
});
