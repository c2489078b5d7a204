import { describe, expect, it } from 'vitest';
import { notificationsPrefix } from '../../shared/db/keys.ts';
import { queryAll } from '../../shared/db/table.ts';
import {
  personTag,
  raiserTag,
  readTag,
  replyAuthorTag,
  sameTag,
  seal,
  unseal,
} from '../../shared/grievances/anonymity.ts';
import { mentionTokens, resolveMentions } from '../../shared/grievances/mentions.ts';
import { movedDeltas, raisedDeltas, totalField } from '../../shared/grievances/totals.ts';
import { listNotifications, notify } from '../../shared/notifications/notifications.ts';
import { admin, api, newMember } from '../support/api.ts';

describe('grievances: tags and seals', () => {
  it('tags are stable per person and grievance, and unrelated across grievances, replies and purposes', () => {
    expect(raiserTag('u1', 'g1')).toBe(raiserTag('u1', 'g1'));
    const all = [
      raiserTag('u1', 'g1'),
      raiserTag('u1', 'g2'),
      raiserTag('u2', 'g1'),
      readTag('u1', 'g1'),
      personTag('u1'),
      replyAuthorTag('u1', 'g1', 'r1'),
      replyAuthorTag('u1', 'g1', 'r2'),
    ];
    expect(new Set(all).size).toBe(all.length);
    // Not derived from the id in a recoverable way: every tag is one HMAC-SHA256 (32 bytes), whatever
    // the length of what it marks, so it cannot carry the id ...
    const long = 'u'.repeat(500);
    for (const t of [...all, raiserTag(long, long), replyAuthorTag(long, long, long), personTag(long)]) {
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    // ... and it is keyed: without GRIEVANCE_SECRET, knowing the id does not give the tag.
    const ours = [raiserTag('u1', 'g1'), readTag('u1', 'g1'), personTag('u1'), replyAuthorTag('u1', 'g1', 'r1')];
    const secret = process.env.GRIEVANCE_SECRET;
    try {
      process.env.GRIEVANCE_SECRET = `${secret}-another`;
      const theirs = [raiserTag('u1', 'g1'), readTag('u1', 'g1'), personTag('u1'), replyAuthorTag('u1', 'g1', 'r1')];
      expect(theirs.filter((t, i) => t === ours[i])).toEqual([]);
    } finally {
      process.env.GRIEVANCE_SECRET = secret;
    }
    expect(raiserTag('u1', 'g1')).toBe(ours[0]);
    // The encoding is unambiguous: ("u1g", "1") is not ("u1", "g1").
    expect(raiserTag('u1g', '1')).not.toBe(raiserTag('u1', 'g1'));
    expect(sameTag(raiserTag('u1', 'g1'), raiserTag('u1', 'g1'))).toBe(true);
    expect(sameTag(raiserTag('u1', 'g1'), raiserTag('u2', 'g1'))).toBe(false);
    expect(sameTag(undefined, raiserTag('u1', 'g1'))).toBe(false);
  });

  it('seals open only in their own context and two seals of one value look unrelated', () => {
    // A value with characters base64url never produces: finding it in a seal could only mean it was
    // stored in the clear, never an accident of the random IV.
    const value = 'user 1@example.com';
    const a = seal(value, 'ctx-a');
    const b = seal(value, 'ctx-a');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(a).not.toContain(value);
    expect(unseal(a, 'ctx-a')).toBe(value);
    expect(unseal(a, 'ctx-b')).toBeNull();
    // Altered: one bit of the ciphertext flipped (replacing the last characters by fixed ones would
    // leave the seal intact whenever it already ended with them).
    const altered = Buffer.from(a, 'base64url');
    altered[altered.length - 1] ^= 1;
    expect(unseal(altered.toString('base64url'), 'ctx-a')).toBeNull();
    expect(unseal('garbage', 'ctx-a')).toBeNull();
  });
});

describe('grievances: mentions', () => {
  it('reads distinct tokens in body order', () => {
    expect(mentionTokens('@[b] hi @[a] and @[b] again, @[] and @[c d] and @[e]')).toEqual(['b', 'a', 'e']);
  });

  it('keeps the first 20 real people, never the author, dropping unknown and deactivated ids', async () => {
    const people = await Promise.all(Array.from({ length: 22 }, () => newMember()));
    const author = people[0];
    const gone = people[1];
    expect(
      (
        await api('PATCH', `/admin/members/${gone.id}/status`, {
          token: (await admin()).token,
          body: { status: 'deactivated' },
        })
      ).status,
    ).toBe(200);
    const body = ['@[nobody]', ...people.map((p) => `@[${p.id}]`)].join(' ');
    const resolved = await resolveMentions(body, author.id);
    expect(resolved).toEqual(people.slice(2, 22).map((p) => p.id));
  });
});

describe('grievances: totals', () => {
  it('a raise counts in four fields; a move shifts its status fields only', () => {
    expect([...raisedDeltas('open', 'policy')]).toEqual([
      ['all', 1],
      ['status_open', 1],
      ['category_policy', 1],
      ['status_open_category_policy', 1],
    ]);
    expect(Object.fromEntries(movedDeltas('open', 'closed', 'policy'))).toEqual({
      status_open: -1,
      status_open_category_policy: -1,
      status_closed: 1,
      status_closed_category_policy: 1,
    });
    expect(movedDeltas('open', 'open', 'policy').size).toBe(0);
    expect(totalField({ status: 'in_review' })).toBe('status_in_review');
  });
});

describe('notifications: one sealed form at rest', () => {
  it('stores a grievance notification and an announcement with the same attributes, nothing of either in the clear, and lists both in clear', async () => {
    const m = await newMember();
    await notify([
      { recipientId: m.id, kind: 'grievance', actorId: null, preview: 'Secret subject line', anonymous: true },
    ]);
    await notify([{ recipientId: m.id, kind: 'announcement', actorId: null, preview: 'Plain preview' }]);
    const stored = await queryAll(notificationsPrefix(m.id));
    expect(stored.length).toBe(2);
    const shapes = stored.map((n) => Object.keys(n).sort().join(','));
    expect(shapes[0]).toBe(shapes[1]);
    for (const n of stored) {
      const text = JSON.stringify(n);
      for (const clear of ['Secret subject', 'Plain preview', 'grievance', 'announcement'])
        expect(text).not.toContain(clear);
      expect(n.anon).toBeUndefined();
    }
    const listed = await listNotifications(m.id, 10);
    expect(listed.map((n) => n.preview).sort()).toEqual(['Plain preview', 'Secret subject line']);
    expect(listed.map((n) => n.kind).sort()).toEqual(['announcement', 'grievance']);
  });
});
