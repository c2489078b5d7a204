import { describe, expect, it } from 'vitest';
import { keyOfStored, keyRing, withKeyId } from './key-ring.ts';

describe('key rings', () => {
  const original = 'the-original-key-of-some-length';
  const next = 'the-next-key-of-some-length-too';

  it('keeps values of the original key in their form, and marks the others with their key id', () => {
    const [current, first] = keyRing([next, original]);
    expect(first.original).toBe(true);
    expect(withKeyId(first, 'abc')).toBe('abc');
    expect(withKeyId(current, 'abc')).toBe(`${current.id}.abc`);
    expect(current.id).not.toBe(first.id);
  });

  it('finds the key a stored value was made with, and none for a key the ring does not hold', () => {
    const ring = keyRing([next, original]);
    expect(keyOfStored(ring, 'abc')).toEqual({ key: ring[1], value: 'abc' });
    expect(keyOfStored(ring, `${ring[0].id}.abc`)).toEqual({ key: ring[0], value: 'abc' });
    expect(keyOfStored(keyRing([original]), `${ring[0].id}.abc`)).toBeNull();
  });
});
