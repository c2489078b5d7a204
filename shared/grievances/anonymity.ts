import { timingSafeEqual } from 'node:crypto';
import { keyedAnonymity } from '../config/keyed-anonymity.ts';
import { secretKeys } from '../config/secrets.ts';

/**
 * The two tools that keep grievance authors anonymous at rest, both keyed by GRIEVANCE_SECRET (kept
 * outside the table; shared/config/secrets.ts):
 * - tags: HMAC-SHA256 of a person and one grievance (or reply). The service recomputes a tag for the
 *   caller and compares; a table reader without the secret can neither invert a tag nor tell that two
 *   tags belong to one person.
 * - seals: AES-256-GCM with a fresh IV, for what the service must recover (whom to notify, which handler
 *   to show on admin routes). Each seal is bound to its context (additional authenticated data), so it
 *   cannot be moved to another item, and two seals of one id look unrelated.
 * The secret may be a key ring (docs/deployment.md, "Rotating the secrets"): new tags and seals are
 * made with its current key and carry that key's id (shared/config/key-ring.ts), so each stored one is
 * recomputed or opened with the key that made it; lookups by tag try every key of the ring. Both are
 * made by shared/config/keyed-anonymity.ts, as pulse surveys' are, under this secret and salt.
 */
// Pure: a bundle that imports this module but uses none of it drops it, and with it the secret's grant.
const keys = /* @__PURE__ */ keyedAnonymity('workplace-grievances', () => secretKeys('grievance'));
const tag = (...parts: string[]) => keys.tag(...parts);
const tags = (...parts: string[]) => keys.tags(...parts);

/** Marks the person who raised this grievance ("is the caller the raiser?"). */
export const raiserTag = (userId: string, grievanceId: string) => tag('raiser', userId, grievanceId);
export const raiserTags = (userId: string, grievanceId: string) => tags('raiser', userId, grievanceId);
/** Marks the author of this one reply ("is this my reply?"); unrelated across replies of one person. */
export const replyAuthorTag = (userId: string, grievanceId: string, replyId: string) =>
  tag('reply', userId, grievanceId, replyId);
export const replyAuthorTags = (userId: string, grievanceId: string, replyId: string) =>
  tags('reply', userId, grievanceId, replyId);
/** Addresses a person's read marker of this grievance (`readTags`: under every key, for lookups). */
export const readTag = (userId: string, grievanceId: string) => tag('read', userId, grievanceId);
export const readTags = (userId: string, grievanceId: string) => tags('read', userId, grievanceId);
/** Addresses a person's own grievance counter (raised or read), which names no grievance. */
export const personTag = (userId: string) => tag('person', userId);
export const personTags = (userId: string) => tags('person', userId);

/** Constant-time comparison of a stored tag with a recomputed one (or with any of its forms under the ring's keys). */
export function sameTag(stored: string | undefined | null, computed: string | string[]): boolean {
  if (!stored) return false;
  const a = Buffer.from(stored);
  let same = false;
  for (const c of typeof computed === 'string' ? [computed] : computed) {
    const b = Buffer.from(c);
    if (a.length === b.length && timingSafeEqual(a, b)) same = true;
  }
  return same;
}

/** Encrypts `text` for this context, with the ring's current key. */
export const seal = (text: string, context: string): string => keys.seal(text, context);
/** Decrypts a seal made for this context; null when it is not one (altered, another context, another secret). */
export const unseal = (sealed: string | undefined | null, context: string): string | null =>
  keys.unseal(sealed, context);
