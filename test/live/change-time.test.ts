import { describe, expect, it } from 'vitest';
import { changeTime } from '../../shared/live/change-feed.ts';

const now = Date.parse('2026-03-02T10:15:42.123Z');
// DynamoDB Local stamps stream records with the whole minute; DynamoDB with the second.
const recordMinute = Date.parse('2026-03-02T10:15:00.000Z') / 1000;
/** The time `changeTime` gives a change from these images, stamped by the stream at `recordMinute`. */
const timeOf = (oldImage: Record<string, unknown> | undefined, newImage: Record<string, unknown> | undefined) =>
  changeTime(oldImage, newImage, recordMinute, now).toISOString();

describe('the time of a change comes from the item', () => {
  it('takes the latest instant the change wrote, to the millisecond, not the stream record time', () => {
    const at = timeOf(
      { entity: 'User', updatedAt: '2026-03-01T08:00:00.000Z', createdAt: '2025-01-01T00:00:00.000Z' },
      { entity: 'User', updatedAt: '2026-03-02T10:15:41.987Z', createdAt: '2025-01-01T00:00:00.000Z' },
    );
    expect(at).toBe('2026-03-02T10:15:41.987Z');
    const inserted = timeOf(undefined, { entity: 'Notification', createdAt: '2026-03-02T10:15:40.500Z' });
    expect(inserted).toBe('2026-03-02T10:15:40.500Z');
  });

  it('does not take a deadline the change moved into the future for the time of the change', () => {
    const at = timeOf(
      { entity: 'Presence', lastSeenAt: '2026-03-02T10:10:00.000Z', onlineUntil: '2026-03-02T10:13:00.000Z' },
      { entity: 'Presence', lastSeenAt: '2026-03-02T10:15:41.000Z', onlineUntil: '2026-03-02T10:18:41.000Z' },
    );
    expect(at).toBe('2026-03-02T10:15:41.000Z');
  });

  it('falls back to the record time for a change that wrote no instant, never before the item’s own latest', () => {
    const removed = timeOf({ entity: 'Reaction', createdAt: '2026-03-02T09:00:00.000Z' }, undefined);
    expect(removed).toBe('2026-03-02T10:15:00.000Z');
    const later = timeOf({ entity: 'X', updatedAt: '2026-03-02T10:15:30.250Z' }, undefined);
    expect(later).toBe('2026-03-02T10:15:30.250Z');
    expect(changeTime(undefined, { entity: 'X' }, undefined, now).getTime()).toBe(now);
  });
});
