import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { matchesAny } from '../../infra/local/filter-pattern.ts';
import { write } from '../../shared/db/table.ts';
import { claimAnnouncement, sendAnnouncementPage } from '../../shared/feed/announcements.ts';
import { companyFanOut, companyFanOutFilters } from '../../shared/feed/company-fan-out.ts';
import { AnnouncementNotice, Post } from '../../shared/feed/entities.ts';
import { fanOut, fanOutFilters } from '../../shared/feed/fan-out.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { User } from '../../shared/people/entities.ts';
import { newMember, uniq } from '../support/api.ts';
import { createPost } from './helpers.ts';

/** The stream record of the post's INSERT, as the fan-out consumer receives it. */
const insertRecord = (item: object): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as never },
});

const announcementsOf = async (userId: string, postId: string) =>
  (await listNotifications(userId, 50)).filter((n) => n.kind === 'announcement' && n.postId === postId);

describe('announcement fan-out (the company fan-out: resumable, page by page)', () => {
  it('a redelivery after a partial run completes it, nobody told twice', async () => {
    const boss = await newMember({ role: 'super_admin' });
    for (let i = 0; i < 8; i++) await newMember(); // an audience of more than one page of 5
    // Written as an ordinary post, then made an announcement in place: its INSERT record, which is
    // what starts the runtime's own fan-out, is then delivered only by this test.
    const p = await createPost(boss.token, { content: `All hands ${uniq()}` });
    await write(
      Post.update(
        { id: p.id },
        {
          UpdateExpression: 'SET isAnnouncement = :t ADD rev :one',
          ExpressionAttributeValues: { ':t': true, ':one': 1 },
        },
      ),
      { returnValues: 'NONE' },
    );
    const post = (await Post.get({ id: p.id }, { consistent: true }))!;

    // A run that records its first page (of 5) and dies: its progress stays with the notice.
    const claimed = (await claimAnnouncement(post))!;
    const afterCrash = await sendAnnouncementPage(post, claimed, 'preview', 5);
    expect(afterCrash).toMatchObject({ step: 1, sent: 5 });
    expect(afterCrash.cursor).not.toBeNull();

    // The announcement's record is the company fan-out's, never the personal notices' consumer's.
    const record = insertRecord(post);
    expect(matchesAny(companyFanOutFilters, record)).toBe(true);
    expect(matchesAny(fanOutFilters, record)).toBe(false);
    await fanOut([record]);
    expect((await AnnouncementNotice.get({ postId: p.id }, { consistent: true }))?.step).toBe(1);
    // The stream delivers the record again (twice at once): the rest is sent, each page once.
    await Promise.all([companyFanOut([record]), companyFanOut([record])]);
    const done = (await AnnouncementNotice.get({ postId: p.id }, { consistent: true }))!;
    expect(done.doneAt).toBeTruthy();

    const audience = (await User.queryAll({ index: 'members', key: {}, skBefore: `${done.cutoff}$` })).filter(
      (u) => u.status !== 'deactivated' && u.id !== boss.id,
    );
    expect(audience.length).toBeGreaterThan(5);
    expect(done.sent).toBe(audience.length);
    // Everybody on a small company; otherwise the first page, its boundary and the last person.
    const checked = audience.length <= 60 ? audience : [...audience.slice(0, 6), audience[audience.length - 1]];
    for (const u of checked) expect(await announcementsOf(u.id, p.id), u.id).toHaveLength(1);
    expect(await announcementsOf(boss.id, p.id)).toHaveLength(0);

    await companyFanOut([record]); // once more after it is done: nothing
    expect((await AnnouncementNotice.get({ postId: p.id }, { consistent: true }))?.sent).toBe(audience.length);
    expect(await announcementsOf(audience[0].id, p.id)).toHaveLength(1);
  });
});
