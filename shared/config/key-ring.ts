import { createHash } from 'node:crypto';

/**
 * A secret's keys while it is rotated (docs/deployment.md, "Rotating the secrets"), current first
 * (`secretKeys`, shared/config/secrets.ts). Values made with a key carry its id (`<id>.<value>`), so a
 * stored value names the key that opens or recomputes it; the ring's last key is the original one,
 * whose values carry no id: everything stored before the first rotation keeps its form.
 */
export interface RingKey {
  /** A short id derived from the key itself (it names the key, it does not reveal it). */
  id: string;
  key: string;
  /** The original key: its values carry no id. */
  original: boolean;
}

const SEPARATOR = '.';

export const keyId = (key: string) => createHash('sha256').update(`key-id:${key}`).digest('base64url').slice(0, 8);

/** The ring of these keys (current first, original last). */
export const keyRing = (keys: string[]): RingKey[] =>
  keys.map((key, i) => ({ key, id: keyId(key), original: i === keys.length - 1 }));

/** A value made with `k`, as stored: with the key's id unless it is the original key. */
export const withKeyId = (k: RingKey, value: string) => (k.original ? value : `${k.id}${SEPARATOR}${value}`);

/** The key a stored value was made with, and the value without its id; null when no key of the ring made it. */
export function keyOfStored(ring: RingKey[], stored: string): { key: RingKey; value: string } | null {
  const at = stored.indexOf(SEPARATOR);
  if (at < 0) return { key: ring[ring.length - 1], value: stored };
  const key = ring.find((k) => !k.original && k.id === stored.slice(0, at));
  return key ? { key, value: stored.slice(at + 1) } : null;
}
