import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { secret as secretValue } from '../config/secrets.ts';

/**
 * The two tools that keep grievance authors anonymous at rest, both keyed by GRIEVANCE_SECRET (kept
 * outside the table; shared/config/secrets.ts):
 * - tags: HMAC-SHA256 of a person and one grievance (or reply). The service recomputes a tag for the
 *   caller and compares; a table reader without the secret can neither invert a tag nor tell that two
 *   tags belong to one person.
 * - seals: AES-256-GCM with a fresh IV, for what the service must recover (whom to notify, which handler
 *   to show on admin routes). Each seal is bound to its context (additional authenticated data), so it
 *   cannot be moved to another item, and two seals of one id look unrelated.
 */
type Purpose = 'tags' | 'seals';

const derived = new Map<string, Buffer>();

/** Separate keys per purpose, derived with HKDF (memoised per secret: a pure function of it). */
function keyFor(purpose: Purpose): Buffer {
  const secret = secretValue('grievance');
  const id = `${purpose}\u0000${secret}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'workplace-grievances', purpose, 32));
    derived.set(id, key);
  }
  return key;
}

function tag(kind: string, ...parts: string[]): string {
  return createHmac('sha256', keyFor('tags'))
    .update(JSON.stringify([kind, ...parts]))
    .digest('base64url');
}

/** Marks the person who raised this grievance ("is the caller the raiser?"). */
export const raiserTag = (userId: string, grievanceId: string) => tag('raiser', userId, grievanceId);
/** Marks the author of this one reply ("is this my reply?"); unrelated across replies of one person. */
export const replyAuthorTag = (userId: string, grievanceId: string, replyId: string) =>
  tag('reply', userId, grievanceId, replyId);
/** Addresses a person's read marker of this grievance. */
export const readTag = (userId: string, grievanceId: string) => tag('read', userId, grievanceId);
/** Addresses a person's own grievance counter (raised or read), which names no grievance. */
export const personTag = (userId: string) => tag('person', userId);

/** Constant-time comparison of a stored tag with a recomputed one. */
export function sameTag(stored: string | undefined | null, computed: string): boolean {
  if (!stored) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(computed);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Encrypts `text` for this context. */
export function seal(text: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor('seals'), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Decrypts a seal made for this context; null when it is not one (altered, another context, another secret). */
export function unseal(sealed: string | undefined | null, context: string): string | null {
  if (!sealed) return null;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyFor('seals'), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
