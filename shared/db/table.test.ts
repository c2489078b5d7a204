import { describe, expect, it } from 'vitest';
import { retryOnConflict } from './table.ts';

/** What DynamoDB throws when a write's condition fails (the step's read went stale). */
const conditionFailed = () =>
  Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });

/** A step that conflicts `times` times, then answers `value`; counts its runs. */
function conflicting<T>(times: number, value: T) {
  const step = async () => {
    step.runs++;
    if (step.runs <= times) throw conditionFailed();
    return value;
  };
  step.runs = 0;
  return step;
}

describe('retryOnConflict', () => {
  it('runs the step again after a failed condition, and answers its first success', async () => {
    const step = conflicting(2, 'done');
    expect(await retryOnConflict(step, { attempts: 3 })).toBe('done');
    expect(step.runs).toBe(3);
  });

  it('rethrows the condition failure after the last attempt, or the error `exhausted` gives', async () => {
    await expect(retryOnConflict(conflicting(5, 'x'), { attempts: 2 })).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    const gaveUp = new Error('kept changing');
    await expect(retryOnConflict(conflicting(5, 'x'), { attempts: 2, exhausted: () => gaveUp })).rejects.toBe(gaveUp);
  });

  it('answers `fallback` instead after the last attempt (a sweep leaves the item to its next run)', async () => {
    const step = conflicting(5, 'x');
    expect(await retryOnConflict(step, { attempts: 3, fallback: () => 'later' })).toBe('later');
    expect(step.runs).toBe(3);
  });

  it('does not retry any other error', async () => {
    const step = async () => {
      throw new Error('table gone');
    };
    await expect(retryOnConflict(step, { attempts: 5, fallback: () => 'later' })).rejects.toThrow('table gone');
  });
});
