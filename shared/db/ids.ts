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

/**
 * The creation time (ms) a time-sortable id carries, or null when `id` is not one. For checks that
 * no stored id dates something it must not (test/grievances/anonymity-at-rest.test.ts).
 */
export function sortableIdTime(id: string): number | null {
  if (!/^[0-9a-hjkmnp-tv-z]{22}$/.test(id)) return null;
  let t = 0;
  for (const c of id.slice(0, 10)) t = t * 32 + ALPHABET.indexOf(c);
  return t;
}

/** An opaque random identifier for things whose order does not matter. */
export const newId = (): string => randomUUID();
