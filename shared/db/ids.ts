import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/**
 * A time-sortable identifier: 10 characters of millisecond time, then 12 random characters.
 * Lexical order is creation order, so it can sit at the end of a sort key and page by time.
 */
export function newSortableId(at: Date = new Date()): string {
  let t = at.getTime();
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(12);
  let rand = '';
  for (const b of bytes) rand += ALPHABET[b % 32];
  return time + rand;
}

/** An opaque random identifier for things whose order does not matter. */
export const newId = (): string => randomUUID();
