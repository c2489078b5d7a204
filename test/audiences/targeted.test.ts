import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postAudienceMembers } from '../../shared/feed/audience.ts';
import { openStream } from '../live/sse-client.ts';
import { expectStatus, type Person, person } from '../people/helpers.ts';
import { admin, api, settled, uniq } from '../support/api.ts';
import { isChange } from '../support/sse.ts';

/**
 * Targeted content (docs/audiences.md, "Targeted content") through the local runtime: a must-read
 * announcement to "engineering in Berlin under Ana" reaches exactly those people, in the feed, on the
 * page, comments and reactions, on the stream, in notifications and push, and nobody else: not an
 * engineer under Ana elsewhere, not a Berlin colleague in product, not a person who joined after
 * publishing (who does see a `dynamic` one). The runtime's table holds other files' people: every
 * rule is scoped by this file's own location names.
 */

interface Company {
  berlin: string;
  ana: Person;
  e1: Person;
  e2: Person;
  elsewhere: Person;
  product: Person;
}

async function company(): Promise<Company> {
  const tag = uniq();
  const berlin = `Berlin ${tag}`;
  const paris = `Paris ${tag}`;
  const ana = await person({ name: `Ana ${tag}`, department: 'engineering' });
  const under = (managerId: string, department: string, location: string) =>
    person({ department, managerId }, { profile: { location } });
  const [e1, elsewhere, product] = await Promise.all([
    under(ana.id, 'engineering', berlin),
    under(ana.id, 'engineering', paris),
    under(ana.id, 'product', berlin),
  ]);
  const e2 = await under(e1.id, 'engineering', berlin);
  return { berlin, ana, e1, e2, elsewhere, product };
}

const ruleOf = (c: Company) => ({
  all: [{ department: 'engineering' }, { location: c.berlin }, { managerId: c.ana.id, chain: true }],
});

const feedIds = async (p: { token: string }, query = '') =>
  (
    expectStatus(await api('GET', `/posts?limit=50${query}`, { token: p.token }), 200, 'feed').items as { id: string }[]
  ).map((x) => x.id);

const notificationsOf = async (p: { token: string }, postId: string) =>
  (
    expectStatus(await api('GET', '/notifications?limit=50', { token: p.token }), 200, 'notifications') as {
      kind: string;
      postId?: string;
    }[]
  ).filter((n) => n.postId === postId);

const pushedAbout = async (p: { id: string }, postId: string) =>
  ((await api('GET', `/_local/outbox?to=${p.id}&channel=push`)).body as unknown[]).filter((m) =>
    JSON.stringify(m).includes(postId),
  );

describe('targeted content', () => {
  let c: Company;
  let streams: Awaited<ReturnType<typeof openStream>>[] = [];
  beforeAll(async () => {
    c = await company();
  }, 120_000);
  afterAll(() => {
    for (const s of streams) s.close();
  });

  it('a must-read to engineering in Berlin under Ana reaches exactly them, everywhere', async () => {
    const a = await admin();
    // Push registrations: the reader named by the post is pushed its mention, the outsider named is not.
    for (const p of [c.e1, c.elsewhere, c.product]) {
      const reg = await api('POST', '/push/tokens', {
        token: p.token,
        body: { token: `t-${uniq()}`, platform: 'android' },
      });
      expect(reg.status).toBe(204);
    }
    const [s1, sOut] = await Promise.all([openStream(c.e1.token), openStream(c.elsewhere.token)]);
    streams = [s1, sOut];
    const created = await api('POST', '/posts', {
      token: a.token,
      body: {
        content: `For Berlin engineers, @[${c.e1.id}] and @[${c.elsewhere.id}]`,
        isAnnouncement: true,
        acknowledgement: { required: true },
        audience: { rule: ruleOf(c) },
      },
    });
    const post = expectStatus(created, 201, 'create');
    expect(post.audience).toEqual({ rule: ruleOf(c) });
    await settled();
    const late = await person({ department: 'engineering', managerId: c.ana.id }, { profile: { location: c.berlin } });
    await settled();

    const readers = [c.e1, c.e2];
    const outsiders = [c.elsewhere, c.product, late];
    for (const p of readers) {
      expect(await feedIds(p), p.id).toContain(post.id);
      expect(await feedIds(p, '&type=announcement'), p.id).toContain(post.id);
      const page = expectStatus(await api('GET', `/posts/${post.id}`, { token: p.token }), 200, 'page');
      expect(page.audience).toBeUndefined(); // shown to the author and super admins only
      expect((await api('GET', `/posts/${post.id}/comments`, { token: p.token })).status).toBe(200);
      const owed = expectStatus(await api('GET', '/users/me/must-read', { token: p.token }), 200, 'must-read');
      expect(owed.items.map((x: { id: string }) => x.id)).toContain(post.id);
      expect((await notificationsOf(p, post.id)).map((n) => n.kind)).toContain('announcement');
    }
    for (const p of outsiders) {
      expect(await feedIds(p), p.id).not.toContain(post.id);
      expect(await feedIds(p, '&type=announcement'), p.id).not.toContain(post.id);
      expect((await api('GET', `/posts/${post.id}`, { token: p.token })).status, p.id).toBe(404);
      expect((await api('GET', `/posts/${post.id}/comments`, { token: p.token })).status, p.id).toBe(404);
      const react = await api('POST', `/posts/${post.id}/upvote`, { token: p.token, body: { reaction: 'like' } });
      expect(react.status, p.id).toBe(404);
      const owed = expectStatus(await api('GET', '/users/me/must-read', { token: p.token }), 200, 'must-read');
      expect(owed.items.map((x: { id: string }) => x.id)).not.toContain(post.id);
      expect(await notificationsOf(p, post.id), p.id).toEqual([]);
      expect(await pushedAbout(p, post.id), p.id).toEqual([]);
    }
    // The mention reached the reader it names (notification and push), not the outsider it names.
    expect((await notificationsOf(c.e1, post.id)).map((n) => n.kind)).toContain('mention');
    expect((await pushedAbout(c.e1, post.id)).length).toBeGreaterThan(0);
    // The must-read counts its audience exactly.
    const acks = expectStatus(await api('GET', `/posts/${post.id}/acknowledgements`, { token: a.token }), 200, 'acks');
    expect(acks.pending).toBe(2);

    // A comment: on the reader's stream, never on the outsider's (a later public post is the sentinel).
    expectStatus(
      await api('POST', `/posts/${post.id}/comments`, { token: c.e2.token, body: { content: 'Noted' } }),
      201,
      'comment',
    );
    const sentinel = expectStatus(
      await api('POST', '/posts', { token: c.ana.token, body: { content: `Public ${uniq()}` } }),
      201,
      'public',
    );
    await s1.next(isChange('post.created', (x) => x.postId === post.id));
    await s1.next(isChange('post.comment.created', (x) => x.postId === post.id));
    await sOut.next(isChange('post.created', (x) => x.postId === sentinel.id));
    expect(sOut.changes().filter((f) => f.data.payload?.postId === post.id)).toEqual([]);

    // The frozen audience, as reach pages it: exactly the readers, and the author's own item.
    const frozen = await postAudienceMembers(post.id, undefined, 1);
    const all = [...frozen.items];
    for (let cursor = frozen.nextCursor; cursor; ) {
      const next = await postAudienceMembers(post.id, cursor, 1);
      all.push(...next.items);
      cursor = next.nextCursor;
    }
    expect(
      all
        .filter((r) => r.how === 'publish')
        .map((r) => r.userId)
        .sort(),
    ).toEqual([c.e1.id, c.e2.id].sort());
    expect(all.filter((r) => r.how === 'author').map((r) => r.userId)).toEqual([a.user.id]);
    expect(all).toHaveLength(3);
  }, 240_000);

  it('a dynamic audience takes a later joiner; a frozen one does not', async () => {
    const frozen = expectStatus(
      await api('POST', '/posts', { token: c.e1.token, body: { content: 'frozen', audience: { rule: ruleOf(c) } } }),
      201,
      'frozen',
    );
    const dynamic = expectStatus(
      await api('POST', '/posts', {
        token: c.e1.token,
        body: { content: 'dynamic', audience: { rule: ruleOf(c), dynamic: true } },
      }),
      201,
      'dynamic',
    );
    await settled();
    const joiner = await person(
      { department: 'engineering', managerId: c.ana.id },
      { profile: { location: c.berlin } },
    );
    await settled();
    const seen = await feedIds(joiner);
    expect(seen).toContain(dynamic.id);
    expect(seen).not.toContain(frozen.id);
    expect((await api('GET', `/posts/${dynamic.id}`, { token: joiner.token })).status).toBe(200);
    expect((await api('GET', `/posts/${frozen.id}`, { token: joiner.token })).status).toBe(404);
    // The author (a member in the audience) and e2 see both; the outsider neither.
    for (const id of [frozen.id, dynamic.id]) {
      expect(await feedIds(c.e2)).toContain(id);
      expect(await feedIds(c.elsewhere)).not.toContain(id);
    }
    // Deleted, its frozen audience goes with it (off every reader's timeline).
    expect((await api('DELETE', `/posts/${frozen.id}`, { token: c.e1.token })).status).toBe(204);
    await settled();
    expect((await postAudienceMembers(frozen.id)).items).toEqual([]);
    expect((await postAudienceMembers(dynamic.id)).items.length).toBeGreaterThan(0);
  }, 240_000);

  it('an event for the audience is listed, and streamed, for exactly them', async () => {
    const [s2, sOut] = await Promise.all([openStream(c.e2.token), openStream(c.product.token)]);
    streams.push(s2, sOut);
    const startsAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const event = expectStatus(
      await api('POST', '/events', {
        token: c.e1.token,
        body: { title: `Berlin engineers' lunch ${uniq()}`, startsAt, audience: { rule: ruleOf(c) } },
      }),
      201,
      'event',
    );
    expect(event.audience).toEqual({ rule: ruleOf(c) });
    await settled();
    const late = await person({ department: 'engineering', managerId: c.ana.id }, { profile: { location: c.berlin } });
    await settled();
    const listed = async (p: { token: string }) =>
      (expectStatus(await api('GET', '/events?limit=100', { token: p.token }), 200, 'events') as { id: string }[]).map(
        (e) => e.id,
      );
    for (const p of [c.e1, c.e2]) expect(await listed(p), p.id).toContain(event.id);
    for (const p of [c.elsewhere, c.product, late]) {
      expect(await listed(p), p.id).not.toContain(event.id);
      // Not theirs to know of: a change is a 404, not a 403.
      const moved = await api('PATCH', `/events/${event.id}`, { token: p.token, body: { startsAt } });
      expect(moved.status, p.id).toBe(404);
    }
    await s2.next(isChange('event.updated', (x) => x.eventId === event.id));
    const sentinel = expectStatus(
      await api('POST', '/events', { token: c.ana.token, body: { title: `All hands ${uniq()}`, startsAt } }),
      201,
      'public event',
    );
    await sOut.next(isChange('event.updated', (x) => x.eventId === sentinel.id));
    expect(sOut.changes().filter((f) => f.data.payload?.eventId === event.id)).toEqual([]);
    // Moved: its readers' list follows its new time.
    const later = new Date(Date.now() + 5 * 86_400_000).toISOString();
    expectStatus(
      await api('PATCH', `/events/${event.id}`, { token: c.e1.token, body: { startsAt: later } }),
      200,
      'move',
    );
    await settled();
    const mine = expectStatus(await api('GET', '/events?limit=100', { token: c.e2.token }), 200, 'events') as {
      id: string;
      startsAt: string;
    }[];
    expect(Date.parse(mine.find((e) => e.id === event.id)!.startsAt)).toBe(Date.parse(later));
  }, 240_000);

  it('refuses a member an audience they are not in, and a bad audience', async () => {
    // Elsewhere is in Paris: the Berlin rule does not select them, and they manage nobody.
    const refused = await api('POST', '/posts', {
      token: c.elsewhere.token,
      body: { content: 'x', audience: { rule: ruleOf(c) } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/audience/);
    // A manager may target the people under them (Ana manages the whole chain).
    const down = await api('POST', '/posts', {
      token: c.ana.token,
      body: { content: 'team', audience: { rule: { managerId: c.ana.id, chain: true } } },
    });
    expect(down.status).toBe(201);
    const bad = await api('POST', '/posts', {
      token: c.e1.token,
      body: { content: 'x', audience: { id: 'nope', rule: { location: c.berlin } } },
    });
    expect(bad.status).toBe(400);
    const unknown = await api('POST', '/posts', {
      token: c.e1.token,
      body: { content: 'x', audience: { id: 'nope' } },
    });
    expect(unknown.status).toBe(400);
    const share = await api('POST', `/posts/${down.body.id}/share`, { token: c.e1.token, body: { content: '' } });
    expect(share.status).toBe(403);
  }, 120_000);
});
