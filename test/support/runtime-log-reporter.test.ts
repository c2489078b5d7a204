import { describe, expect, it } from 'vitest';
import { reasonOf } from './runtime-log-reporter.ts';

describe('reasonOf', () => {
  it('keeps the first error on one line, named unless a plain Error', () => {
    expect(
      reasonOf([{ name: 'AssertionError', message: 'expected false\n\n  to be true' }, { message: 'later' }]),
    ).toBe('AssertionError: expected false to be true');
    expect(reasonOf([{ name: 'Error', message: 'Test timed out in 60000ms.' }])).toBe('Test timed out in 60000ms.');
  });

  it('cuts a long message and says nothing without an error', () => {
    expect(reasonOf([{ message: 'x'.repeat(1000) }])).toHaveLength(301);
    expect(reasonOf(undefined)).toBe('');
    expect(reasonOf([])).toBe('');
  });
});
