import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataRightsWork } from '../../shared/data-rights/work.ts';
import type { Item } from '../../shared/db/table.ts';
import { Notification } from '../../shared/notifications/entities.ts';
import { notificationContent } from '../../shared/notifications/notifications.ts';
import { waitFor } from '../feed/helpers.ts';
import { expectStatus } from '../people/helpers.ts';
import { admin, api, PASSWORD, settled, signIn, uniq } from '../support/api.ts';
import { findTraces } from '../support/person-traces.ts';
import { runtimeOfItsOwn, type SeededCompany } from '../support/seeded-company.ts';
import { scanTable } from '../support/stored-data.ts';

/**
 * Erasure harms no bystander and closes the door before it walks (issue 33), through the local runtime:
 * a person is found by exact values only (an address, not a substring of another; a name only where the
 * service put it next to their id), and writes made while their erasure runs leave nothing naming them.
 */
process.env.DATA_RIGHTS_SETTLE_SECONDS = '3';

// Its jobs walk the whole table: a table of its own (test/support/seeded-company.ts).
let runtime: SeededCompany;
beforeAll(async () => {
  runtime = await runtimeOfItsOwn();
}, 120_000);
afterAll(() => runtime?.stop());

interface Member {
  id: string;
  email: string;
  name: string;
  token: string;
}

/** A member with this address and name, signed in. */
async function member(email: string, name: string): Promise<Member> {
  const a = await admin();
  const made = expectStatus(
    await api('POST', '/admin/members', { token: a.token, body: { name, email, password: PASSWORD } }),
    201,
    'create member',
  );
  return { id: made.id, email, name, token: (await signIn(email, PASSWORD)).token };
}

/** Deactivates and erases a person, running the worker (as its schedule would) until the erasure is done. */
async function erase(p: Member): Promise<void> {
  const a = await admin();
  expectStatus(
    await api('PATCH', `/admin/members/${p.id}/status`, { token: a.token, body: { status: 'deactivated' } }),
    200,
    'deactivate',
  );
  const started = expectStatus(await api('DELETE', `/admin/members/${p.id}`, { token: a.token }), 200, 'erase');
  await untilDone(started.id);
}

async function untilDone(erasureId: string, during?: () => Promise<void>): Promise<void> {
  const a = await admin();
  const done = async () =>
    (await api('GET', `/admin/erasures/${erasureId}`, { token: a.token })).body.status === 'done';
  const until = Date.now() + 120_000;
  while (!(await done()) && Date.now() < until) {
    await runDataRightsWork({ only: [erasureId] });
    if (await done()) break;
    await during?.();
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(await done()).toBe(true);
}

const signInStatus = async (email: string) =>
  (await api('POST', '/auth/sign-in/email', { body: { email, password: PASSWORD } })).status;

/** An item as text, a notification's sealed content opened. */
const textOf = (i: Item) =>
  JSON.stringify([i, Notification.is(i) ? notificationContent(i) : null], (_k, v) =>
    v instanceof Set ? [...v].sort() : v,
  );

/** Kinds that hold one attribute per person (the directory's shards): anybody's change moves the item. */
const PER_PERSON_ATTRIBUTES = new Set(['DirectoryShard', 'DirectoryShardPosts']);

/** Of an item holding everybody's rows, the key and the person's own attributes. */
const ownPart = (i: Item, id: string): Item =>
  PER_PERSON_ATTRIBUTES.has(String(i.entity))
    ? Object.fromEntries(Object.entries(i).filter(([k]) => ['pk', 'sk', 'entity'].includes(k) || k.includes(id)))
    : i;

/**
 * Items that carry a person's id anywhere (the change log's, which moves with everybody's events, left
 * out), each shared item as the person's part of it: other tests add people to the same shards.
 */
const itemsOf = (items: Item[], id: string) =>
  items
    .filter((i) => !String(i.entity).startsWith('Live'))
    .filter((i) => textOf(i).includes(id))
    .map((i) => ownPart(i, id))
    .sort((x, y) => `${x.pk}|${x.sk}`.localeCompare(`${y.pk}|${y.sk}`));

/** A person's notifications, opened. */
const notificationsOf = (items: Item[], id: string) =>
  items.filter((i) => Notification.is(i) && i.recipientId === id).map((n) => notificationContent(n as any));

describe('erasure and bystanders', () => {
  it('erasing an@… leaves dan@… signing in, and joan@… in a meeting and a post as it was', async () => {
    const tag = uniq();
    const an = await member(`an.${tag}@example.com`, `An ${tag}`);
    const dan = await member(`dan.${tag}@example.com`, `Dan ${tag}`);
    const joan = `joan.${tag}@example.com`;
    expect(`dan.${tag}@example.com`).toContain(an.email); // the case of the issue: a substring of the other
    const meeting = expectStatus(
      await api('POST', '/meetings', {
        token: dan.token,
        body: {
          topic: `Sync ${tag}`,
          startsAt: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
          endsAt: new Date(Date.now() + 90_000_000).toISOString().replace(/\.\d+Z$/, 'Z'),
          internalParticipantIds: [],
          externalEmails: [joan],
          type: 'client',
          meetLink: 'https://meet.example.com/x',
        },
      }),
      201,
      'meeting',
    );
    const post = expectStatus(
      await api('POST', '/posts', { token: dan.token, body: { content: `Write to ${joan} or ${an.email} ${tag}` } }),
      201,
      'post',
    );
    expect(await signInStatus(dan.email)).toBe(200);
    const before = await scanTable();

    await erase(an);

    const after = await scanTable();
    expect(await signInStatus(dan.email)).toBe(200);
    expect(await signInStatus(an.email)).toBe(401);
    const meetingOf = (items: Item[]) => items.find((i) => i.entity === 'Meeting' && i.id === meeting.id);
    expect(meetingOf(after)).toEqual(meetingOf(before));
    expect((meetingOf(after) as any).externalEmails).toEqual([joan]);
    // Dan's words, which quote An's address, are Dan's: unchanged.
    const postOf = (items: Item[]) => items.find((i) => i.entity === 'Post' && i.id === post.id);
    expect(postOf(after)).toEqual(postOf(before));
    // Every item of Dan's is as it was.
    expect(itemsOf(after, dan.id)).toEqual(itemsOf(before, dan.id));
  }, 180_000);

  it('erasing "Pat" leaves a third person\'s notification previewing "Patience pays off …" as it was', async () => {
    const tag = uniq();
    const pat = await member(`pat.${tag}@example.com`, 'Pat');
    const third = await member(`third.${tag}@example.com`, `Third ${tag}`);
    const writer = await member(`writer.${tag}@example.com`, `Writer ${tag}`);
    const post = expectStatus(
      await api('POST', '/posts', { token: third.token, body: { content: `Third's post ${tag}` } }),
      201,
      'post',
    );
    // Pat acts on it too: a notification to Third whose actor is Pat (it goes to "nobody").
    expectStatus(
      await api('POST', `/posts/${post.id}/upvote`, { token: pat.token, body: { reaction: 'love' } }),
      200,
      'react',
    );
    expectStatus(
      await api('POST', `/posts/${post.id}/comments`, {
        token: writer.token,
        body: { content: 'Patience pays off, Pat' },
      }),
      201,
      'comment',
    );
    await waitFor(async () =>
      notificationsOf(await scanTable(), third.id).some((c) => c?.preview.startsWith('Patience')) ? true : undefined,
    );
    const before = notificationsOf(await scanTable(), third.id);
    expect(before.some((c) => c?.actorId === pat.id)).toBe(true);

    await erase(pat);

    const after = notificationsOf(await scanTable(), third.id);
    const patience = (list: typeof before) => list.filter((c) => c?.preview.startsWith('Patience'));
    expect(patience(after)).toEqual(patience(before));
    expect(patience(after)[0]?.preview).toBe('Patience pays off, Pat');
    // Pat's own reaction's notification names nobody now.
    expect(after.some((c) => c?.actorId === pat.id)).toBe(false);
    expect(after).toHaveLength(before.length);
  }, 180_000);

  it('erasing one of two people with the same name leaves every item of the other as it was', async () => {
    const tag = uniq();
    const name = `Sam Same ${tag}`;
    const one = await member(`sam1.${tag}@example.com`, name);
    const two = await member(`sam2.${tag}@example.com`, name);
    const other = await member(`other.${tag}@example.com`, `Other ${tag}`);
    // Each is mentioned in somebody's post and comment (previews that hold their name), posts and reacts.
    for (const p of [one, two]) {
      const own = expectStatus(
        await api('POST', '/posts', { token: p.token, body: { content: `By ${p.email}` } }),
        201,
        'own post',
      );
      expectStatus(
        await api('POST', `/posts/${own.id}/upvote`, { token: other.token, body: { reaction: 'love' } }),
        200,
        'react',
      );
      const mention = expectStatus(
        await api('POST', '/posts', { token: other.token, body: { content: `Thanks @[${p.id}] ${tag}` } }),
        201,
        'mention',
      );
      expectStatus(
        await api('POST', `/posts/${mention.id}/comments`, {
          token: p.token,
          body: { content: `Sure @[${p.id}] ${tag}` },
        }),
        201,
        'comment naming themself',
      );
    }
    // A post of Other's mentioning both, commented by a third voice: Other's notification shows both names.
    const both = expectStatus(
      await api('POST', '/posts', { token: other.token, body: { content: `Both of you ${tag}` } }),
      201,
      'post',
    );
    const third = await member(`third.${tag}@example.com`, `Third ${tag}`);
    expectStatus(
      await api('POST', `/posts/${both.id}/comments`, {
        token: third.token,
        body: { content: `@[${one.id}] and @[${two.id}] did it` },
      }),
      201,
      'comment naming both',
    );
    await waitFor(async () =>
      notificationsOf(await scanTable(), other.id).some((c) => c?.preview === `${name} and ${name} did it`)
        ? true
        : undefined,
    );
    const before = await scanTable();
    // Two's items; those that name both (Third's comment and what it caused) are checked below.
    const keys = new Set(
      itemsOf(before, two.id)
        .filter((i) => !textOf(i).includes(one.id))
        .map((i) => `${i.pk}|${i.sk}`),
    );
    const twos = (items: Item[]) => itemsOf(items, two.id).filter((i) => keys.has(`${i.pk}|${i.sk}`));
    expect(twos(before).length).toBeGreaterThan(5);

    await erase(one);

    const after = await scanTable();
    expect(twos(after)).toEqual(twos(before));
    expect(await signInStatus(two.email)).toBe(200);
    // Third's comment naming both: only One's token changed.
    const shared = after.find((i) => i.entity === 'Comment' && i.postId === both.id);
    expect(shared?.content).toMatch(new RegExp(`^@\\[[0-9a-f-]{36}\\] and @\\[${two.id}\\] did it$`));
    expect(shared?.content).not.toContain(one.id);
    // Other's notification: the erased one's name (and only it) became "Former member".
    expect(notificationsOf(after, other.id).map((c) => c?.preview)).toContain(`Former member and ${name} did it`);
  }, 180_000);

  it('closes the door: writes about the person during their erasure leave nothing naming them', async () => {
    const tag = uniq();
    const s = await member(`door.${tag}@example.com`, `Door Subject ${tag}`);
    const o = await member(`door-other.${tag}@example.com`, `Door Other ${tag}`);
    const a = await admin();
    const posts: any[] = [];
    for (let i = 0; i < 3; i++)
      posts.push(
        expectStatus(
          await api('POST', '/posts', { token: s.token, body: { content: `S post ${i} ${tag}` } }),
          201,
          'post',
        ),
      );
    const comment = expectStatus(
      await api('POST', `/posts/${posts[0].id}/comments`, { token: s.token, body: { content: `S thread ${tag}` } }),
      201,
      'S comment',
    );
    expectStatus(
      await api('PATCH', `/admin/members/${s.id}/status`, { token: a.token, body: { status: 'deactivated' } }),
      200,
      'deactivate',
    );
    const started = expectStatus(await api('DELETE', `/admin/members/${s.id}`, { token: a.token }), 200, 'erase');

    // The door is closed from the start: no password, no reactivation (409, the common error body).
    const reset = await api('PATCH', `/admin/members/${s.id}/password`, {
      token: a.token,
      body: { password: 'another-password-1' },
    });
    expect(reset.status).toBe(409);
    expect(reset.body).toMatchObject({ error: expect.any(String) });
    const back = await api('PATCH', `/admin/members/${s.id}/status`, { token: a.token, body: { status: 'active' } });
    expect(back.status).toBe(409);

    // Others keep writing about the person throughout, concurrently with the worker.
    let writing = true;
    let writes = 0;
    const statuses = new Set<number>();
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const post = posts[i % posts.length];
        const results = await Promise.all([
          api('POST', `/posts/${post.id}/comments`, { token: o.token, body: { content: `More ${i} ${tag}` } }),
          api('POST', `/posts/${post.id}/comments`, {
            token: o.token,
            body: { content: `Reply ${i} ${tag}`, parentId: comment.id },
          }),
          api('POST', `/posts/${post.id}/upvote`, {
            token: o.token,
            body: { reaction: i % 2 ? 'love' : 'celebrate' },
          }),
          api('PATCH', `/admin/members/${s.id}/password`, {
            token: a.token,
            body: { password: `pw-${i}-long-enough` },
          }),
          // Follows: 404, as if gone.
          api('PUT', `/people/${s.id}/follow`, { token: o.token }),
        ]);
        for (const r of results) statuses.add(r.status);
        // A password set answers 409 while the profile is there, 404 once the erasure deleted it.
        expect([409, 404]).toContain(results[3].status);
        expect(results[4].status).toBe(404);
        writes += results.length;
      }
    })();
    // Between the worker's runs (while the erasure runs: with their profile, then without it), others
    // mention them by a hand-typed token: the token is not stored (nobody is mentioned, as for any
    // deactivated person), so nothing written names them.
    let mentions = 0;
    const mention = async () => {
      const p = await api('POST', '/posts', { token: o.token, body: { content: `Thanks @[${s.id}] ${tag}` } });
      const c = await api('POST', `/posts/${posts[1].id}/comments`, {
        token: o.token,
        body: { content: `Ask @[${s.id}] ${tag}` },
      });
      expect([p.status, c.status]).toEqual([201, 201]);
      expect(p.body.content).not.toContain(s.id);
      mentions++;
    };
    try {
      await untilDone(started.id, mention);
    } finally {
      writing = false;
      await writer;
    }
    expect(writes).toBeGreaterThan(8);
    expect(mentions).toBeGreaterThan(2);
    expect([...statuses].filter((x) => x >= 500)).toEqual([]);

    // Let the background fan-out (reply notices) finish what it was given, then look everywhere.
    await settled();
    const items = await scanTable();
    const { traces } = await findTraces([s.id, s.email, s.name], { items });
    expect(traces.map((t) => `${t.needle === s.id ? 'id' : t.needle}: ${t.where} ${t.path}`)).toEqual([]);
  }, 240_000);
});
