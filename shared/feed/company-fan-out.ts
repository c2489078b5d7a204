import type { DynamoDBRecord } from 'aws-lambda';
import { announcementFanOut, announcementFilters } from '../calendar/birthdays/announce.ts';
import { CompanyEvent, EventAudience } from '../calendar/entities.ts';
import { toItemChange } from '../live/change-feed.ts';
import { User } from '../people/entities.ts';
import { announce } from './announcements.ts';
import { fanOutAudience, followJoiner } from './audience.ts';
import { MustRead, Post, PostAudience } from './entities.ts';
import { fanOutEventAudience, followEvent } from './event-audience.ts';
import { addAudience, join, leave } from './must-read-audience.ts';

/**
 * The company-wide fan-outs, in a stream consumer of their own (`company-fan-out`, with its own
 * function, concurrency and retries): the work that grows with the company, apart from every
 * personal notification (replies, comments, mentions, poll results: `feed-fan-out`; wishes and
 * reactions: the requests themselves), which therefore never waits behind it.
 * - A new announcement tells everybody, page by page from its notice (announcements.ts).
 * - The day's birthday people are added to the day's notification, which goes to everybody, one
 *   item per person per day (shared/calendar/birthdays/announce.ts).
 * - A must-read announcement's first audience is added, page by page from its state
 *   (must-read-audience.ts); a person who becomes active joins the must-reads still open to joiners,
 *   a person deactivated leaves those they owe.
 * All resume after a crash from the progress they record with each page (the stream redelivers the
 * record that started them; a stalled birthday day is also taken over by the next reader).
 */
export const companyFanOutFilters: Record<string, unknown>[] = [
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [Post.name] }, isAnnouncement: { BOOL: [true] } } } },
  ...announcementFilters,
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [MustRead.name] } } } },
  // A targeted post's or event's audience, frozen at publish (audience.ts, event-audience.ts).
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [PostAudience.name, EventAudience.name] } } } },
  // A company event moved or deleted: a targeted one's readers' copies of its times follow (events are few).
  { eventName: ['MODIFY', 'REMOVE'], dynamodb: { OldImage: { entity: { S: [CompanyEvent.name] } } } },
  // A person whose company values changed may join a dynamic audience (audience.ts followJoiner).
  {
    eventName: ['MODIFY'],
    dynamodb: { NewImage: { entity: { S: [User.name] }, status: { S: ['active', 'pending'] } } },
  },
  // A person who becomes active (new, or reactivated), or is deactivated: the must-reads' audiences.
  {
    eventName: ['INSERT'],
    dynamodb: { NewImage: { entity: { S: [User.name] }, status: { S: ['active', 'pending'] } } },
  },
  {
    eventName: ['MODIFY'],
    dynamodb: {
      NewImage: { entity: { S: [User.name] }, status: { S: ['active', 'pending'] } },
      OldImage: { status: { S: ['deactivated'] } },
    },
  },
  {
    eventName: ['MODIFY'],
    dynamodb: {
      NewImage: { entity: { S: [User.name] }, status: { S: ['deactivated'] } },
      OldImage: { status: { S: ['active', 'pending'] } },
    },
  },
];

/** Whether what audiences select by (docs/audiences.md) may have moved: status, role or the company's values. */
const companyMoved = (before: Record<string, unknown> | undefined, after: Record<string, unknown>) =>
  !before ||
  ['status', 'role', 'company', 'department', 'teamId', 'managerId', 'location'].some(
    (f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]),
  );

export async function companyFanOut(records: DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    const item = toItemChange(r).newImage;
    // A targeted post's announcement and must-read go to its readers once they are recorded (audience.ts).
    if (r.eventName === 'INSERT' && Post.is(item) && item.isAnnouncement && !item.audience) await announce(item.id);
    if (r.eventName === 'INSERT' && MustRead.is(item) && !item.targeted) await addAudience(item.postId);
    if (r.eventName === 'INSERT' && PostAudience.is(item)) await fanOutAudience(item.postId);
    if (r.eventName === 'INSERT' && EventAudience.is(item)) await fanOutEventAudience(item.eventId);
    const old = toItemChange(r).oldImage;
    if (r.eventName !== 'INSERT' && CompanyEvent.is(old) && old.audience) await followEvent(old.id);
    if (User.is(item)) {
      const before = toItemChange(r).oldImage;
      const was = User.is(before) ? before.status : undefined;
      if (item.status === 'deactivated' && was && was !== 'deactivated') await leave(item.id);
      if (item.status !== 'deactivated' && (r.eventName === 'INSERT' || was === 'deactivated')) await join(item);
      if (item.status !== 'deactivated' && (r.eventName === 'INSERT' || companyMoved(before, item)))
        await followJoiner(item);
    }
  }
  await announcementFanOut(records);
}
