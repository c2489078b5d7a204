import { describe, expect, it } from 'vitest';
import {
  personTag,
  raiserTag,
  readTag,
  replyAuthorTag,
  sameTag,
  seal,
  unseal,
} from '../../shared/grievances/anonymity.ts';
import { boardIndex } from '../../shared/grievances/board.ts';
import {
  Grievance,
  GrievanceErasureAudit,
  GrievanceHandlingEntry,
  GrievanceNotice,
  GrievanceNoticeCursor,
  GrievanceNotificationRef,
  GrievanceRead,
  GrievanceReaderRef,
  GrievanceReply,
  GrievanceSeen,
  GrievanceStats,
  GrievanceStatusChange,
  GrievanceTotals,
} from '../../shared/grievances/entities.ts';
import { noticeKeyParts, readTagOf, statusChangeMoveOf } from '../../shared/grievances/legacy-keys.ts';
import { mentionTokens, resolveMentions } from '../../shared/grievances/mentions.ts';
import { handlingShard } from '../../shared/grievances/shards.ts';
import { movedDeltas, raisedDeltas, totalField } from '../../shared/grievances/totals.ts';
import { Notification, NotificationCounter, NotificationReadAll } from '../../shared/notifications/entities.ts';
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
    const stored = await Notification.queryAll({ key: { recipientId: m.id } });
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

describe('grievance and notification keys as stored', () => {
  it('the declarations store the keys and index attributes of 0.2.0 (no stored form changes with them)', () => {
    const g = Grievance.item({
      id: 'g1',
      subject: 's',
      description: 'd',
      category: 'policy',
      status: 'in_review',
      resolvedAt: null,
      replyCount: 0,
      statusNote: null,
      statusNoteAt: null,
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-01-02T03:04:05.000Z',
      moves: 1,
      raiserTag: 't',
      raiserSeal: 's',
    });
    const sk = '2026-01-02T03:04:05.000Z#g1';
    expect(g).toMatchObject({
      pk: 'GRIEVANCE#g1',
      sk: 'GRIEVANCE',
      entity: 'Grievance',
      anon: true,
      gsi1pk: 'GRIEVANCES',
      gsi2pk: 'GRIEVANCES#S#in_review',
      gsi3pk: 'GRIEVANCES#C#policy',
      gsi4pk: 'GRIEVANCES#S#in_review#C#policy',
      gsi1sk: sk,
      gsi2sk: sk,
      gsi3sk: sk,
      gsi4sk: sk,
    });
    const keys = [
      [GrievanceReply.key({ grievanceId: 'g1', id: 'r1' }), 'GRIEVANCE#g1', 'REPLY#r1'],
      [GrievanceStatusChange.key({ grievanceId: 'g1', move: 12 }), 'GRIEVANCE#g1', 'STATUS#00000012'],
      [GrievanceReaderRef.key({ grievanceId: 'g1', refId: 'x' }), 'GRIEVANCE#g1', 'READER#x'],
      [GrievanceNotificationRef.key({ grievanceId: 'g1', refId: 'x' }), 'GRIEVANCE#g1', 'NOTIFIED#x'],
      [GrievanceTotals.key({}), 'GRIEVANCE_TOTALS', 'TOTALS'],
      [GrievanceRead.key({ readTag: 'rt' }), 'GRIEVANCE_READ#rt', 'READ'],
      [GrievanceSeen.key({ personTag: 'pt' }), 'GRIEVANCE_SEEN#pt', 'COUNT'],
      [
        GrievanceNotice.key({ shard: 3, releaseAt: '2026-01-02T03:05:00.000Z', id: 'n1' }),
        'GRIEVANCE_NOTICES#3',
        '2026-01-02T03:05:00.000Z#n1',
      ],
      [GrievanceNoticeCursor.key({}), 'GRIEVANCE_NOTICES_CURSOR', 'CURSOR'],
      [
        GrievanceHandlingEntry.key({ index: 'DEADLINES', shard: 2, at: '2026-01-09', grievanceId: 'g1' }),
        'GRIEVANCE_DEADLINES#2',
        '2026-01-09#g1',
      ],
      [GrievanceStats.key({ day: '2026-01-02' }), 'GRIEVANCE_STATS#2026-01-02', 'STATS'],
      [
        GrievanceErasureAudit.key({ runAt: '2026-01-02T03:00:00.000Z' }),
        'GRIEVANCE_ERASURES#2026-01',
        '2026-01-02T03:00:00.000Z',
      ],
      [Notification.key({ recipientId: 'u1', id: 'n1' }), 'NOTIF#u1', 'N#n1'],
      [NotificationCounter.key({ userId: 'u1' }), 'NOTIF#u1', 'COUNT'],
      [NotificationReadAll.key({ userId: 'u1' }), 'NOTIF#u1', 'READ_ALL'],
    ] as const;
    for (const [key, pk, sk] of keys) expect(key).toEqual({ pk, sk });
    // Key composites kept out of the item: a counter's tag, a day's date, an entry's shard.
    expect(GrievanceHandlingEntry.item({ index: 'FINISHED', shard: 1, at: 'a', grievanceId: 'g1' })).toEqual({
      pk: 'GRIEVANCE_FINISHED#1',
      sk: 'a#g1',
      entity: 'GrievanceHandlingEntry',
      anon: true,
      index: 'FINISHED',
      at: 'a',
      grievanceId: 'g1',
    });
    // Unread notifications are in the recipient's unread index, read ones are not.
    const unread = { id: 'n1', recipientId: 'u1', sealed: 'x', readAt: null, createdAt: 'c' };
    expect(Notification.item(unread)).toMatchObject({ gsi2pk: 'UNREAD#u1', gsi2sk: 'n1' });
    expect(Notification.item({ ...unread, readAt: 'r' })).not.toHaveProperty('gsi2pk');
  });

  it('reads key composites back from the keys of items written before they stored them', () => {
    expect(statusChangeMoveOf(GrievanceStatusChange.key({ grievanceId: 'g1', move: 12 }).sk)).toBe(12);
    expect(readTagOf(GrievanceRead.key({ readTag: 'a.b-c_d' }).pk)).toBe('a.b-c_d');
    const notice = { shard: 3, releaseAt: '2026-01-02T03:05:00.000Z', id: '0123456789abcdefghijkl' };
    expect(noticeKeyParts(GrievanceNotice.key(notice), notice.id)).toEqual({
      shard: notice.shard,
      releaseAt: notice.releaseAt,
    });
  });

  it('picks the board index of a filter, and the shard of a grievance from its id alone', () => {
    expect(boardIndex({})).toBe('all');
    expect(boardIndex({ status: 'open' })).toBe('byStatus');
    expect(boardIndex({ category: 'other' })).toBe('byCategory');
    expect(boardIndex({ status: 'open', category: 'other' })).toBe('byBoth');
    expect(handlingShard('g1')).toBe(handlingShard('g1'));
    expect(new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(handlingShard)).size).toBe(4);
  });
});
