import { describe, expect, it } from 'vitest';
import { nextPageOf } from './paged-progress.ts';

describe('nextPageOf', () => {
  const at = '2026-12-07T10:00:00.000Z';

  it('records a page on the step read only, and answers the progress after it', () => {
    const { parts, progress } = nextPageOf({ step: 2, cursor: 'a', sent: 180 }, 90, { done: false, cursor: 'b', at });
    expect(parts.ConditionExpression).toBe('#step = :step AND attribute_not_exists(doneAt)');
    expect(parts.UpdateExpression).toBe('SET #step = :next, #sent = #sent + :n, #cursor = :cursor');
    expect(parts.ExpressionAttributeValues).toEqual({ ':next': 3, ':n': 90, ':step': 2, ':cursor': 'b' });
    expect(progress).toEqual({ step: 3, cursor: 'b', sent: 270 });
  });

  it('marks the last page done, keeps the cursor when none is given, and grows further counters by the page', () => {
    const { parts, progress } = nextPageOf({ step: 0, sent: 0, pending: 4, other: 1 }, 7, {
      done: true,
      at,
      counters: ['pending'],
    });
    expect(parts.UpdateExpression).toBe('SET #step = :next, #sent = #sent + :n, #c0 = #c0 + :n, doneAt = :now');
    expect(parts.ExpressionAttributeNames).toEqual({ '#step': 'step', '#sent': 'sent', '#c0': 'pending' });
    expect(parts.ExpressionAttributeValues).toMatchObject({ ':now': at, ':n': 7 });
    expect(progress).toEqual({ step: 1, sent: 7, pending: 11, other: 1, doneAt: at });
  });
});
