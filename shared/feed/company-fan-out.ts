import type { DynamoDBRecord } from 'aws-lambda';
import { announcementFanOut, announcementFilters } from '../calendar/birthdays/announce.ts';
import { toItemChange } from '../live/change-feed.ts';
import { announce } from './announcements.ts';
import { Post } from './entities.ts';

/**
 * The company-wide fan-outs, in a stream consumer of their own (`company-fan-out`, with its own
 * function, concurrency and retries): the work that grows with the company, apart from every
 * personal notification (replies, comments, mentions, poll results: `feed-fan-out`; wishes and
 * reactions: the requests themselves), which therefore never waits behind it.
 * - A new announcement tells everybody, page by page from its notice (announcements.ts).
 * - The day's birthday people are added to the day's notification, which goes to everybody, one
 *   item per person per day (shared/calendar/birthdays/announce.ts).
 * Both resume after a crash from the progress they record with each page (the stream redelivers the
 * record that started them; a stalled birthday day is also taken over by the next reader).
 */
export const companyFanOutFilters: Record<string, unknown>[] = [
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [Post.name] }, isAnnouncement: { BOOL: [true] } } } },
  ...announcementFilters,
];

export async function companyFanOut(records: DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    const item = toItemChange(r).newImage;
    if (r.eventName === 'INSERT' && Post.is(item) && item.isAnnouncement) await announce(item.id);
  }
  await announcementFanOut(records);
}
