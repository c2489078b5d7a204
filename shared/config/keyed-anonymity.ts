import { keyOfStored, keyRing, type RingKey, withKeyId } from './key-ring.ts';
import { derivedKey, keyedTag, openWith, sealWith } from './keyed-crypto.ts';

/**
 * The keyed tags and seals that keep people apart from what they stored, under one secret (a key ring):
 * the grievance channel (shared/grievances/anonymity.ts) and pulse surveys (shared/surveys/anonymity.ts)
 * each make theirs with their own secret and salt. One implementation, so both stay alike: a tag is
 * HMAC-SHA256 of its parts under a key derived for tags; a seal is AES-256-GCM bound to its context under
 * a key derived for seals; new ones use the ring's current key and carry its id (shared/config/key-ring.ts),
 * lookups try every key. The stored forms are the areas' keys at rest: same inputs, same bytes.
 *
 * `keys` reads the secret: each area passes its own `secretKeys(...)` call, so the module that reads a
 * secret stays the one shared/config/secrets.ts names (the function grants are derived from it).
 */
export function keyedAnonymity(salt: string, keys: () => string[]) {
  const keyFor = (ringKey: RingKey, purpose: 'tags' | 'seals'): Buffer => derivedKey(ringKey.key, salt, purpose);
  const ring = () => keyRing(keys());
  const tagWith = (ringKey: RingKey, parts: string[]) => withKeyId(ringKey, keyedTag(keyFor(ringKey, 'tags'), parts));
  return {
    /** The tag new items carry: made with the ring's current key. */
    tag: (...parts: string[]): string => tagWith(ring()[0]!, parts),
    /** The tag under every key of the ring: what a lookup by tag, or a comparison, tries. */
    tags: (...parts: string[]): string[] => ring().map((k) => tagWith(k, parts)),
    /** The current key for tags, for a tag that carries no key id (e.g. a sort key word). */
    currentTagKey: (): Buffer => keyFor(ring()[0]!, 'tags'),
    /** Encrypts `text` for this context, with the ring's current key. */
    seal(text: string, context: string): string {
      const current = ring()[0]!;
      return withKeyId(current, sealWith(keyFor(current, 'seals'), text, { context }));
    },
    /** Decrypts a seal made for this context; null when it is not one (altered, another context, another secret). */
    unseal(sealed: string | undefined | null, context: string): string | null {
      if (!sealed) return null;
      const made = keyOfStored(ring(), sealed);
      if (!made) return null;
      return openWith(keyFor(made.key, 'seals'), made.value, context)?.toString('utf8') ?? null;
    },
  };
}
