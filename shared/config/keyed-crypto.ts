import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The keyed primitives every secret of the service is used through (shared/config/secrets.ts names
 * the secrets and the one module that reads each): a key derived per use, a keyed tag, and an
 * AES-256-GCM seal. This module reads no secret itself, so holding it grants none
 * (infra/constructs/secret-grants.ts grants by the reading module).
 *
 * A seal is `iv (12 bytes) | auth tag (16) | ciphertext`, base64url: the stored form of every sealed
 * value (grievance seals, notification content, cursors), which stays readable by every release.
 */

const derived = new Map<string, Buffer>();

/** A 32-byte key for one use of a secret key (HKDF-SHA256), memoised: a pure function of its inputs. */
export function derivedKey(secretKey: string, salt: string, info: string): Buffer {
  const id = `${salt}\u0000${info}\u0000${secretKey}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey, salt, info, 32));
    derived.set(id, key);
  }
  return key;
}

/** HMAC-SHA256 of the parts (as one JSON array, so no two lists of parts collide), base64url. */
export const keyedTag = (key: Buffer, parts: string[]): string =>
  createHmac('sha256', key).update(JSON.stringify(parts)).digest('base64url');

/**
 * Seals `plain` under `key`, bound to `context` when one is given (additional authenticated data: the
 * seal opens only for the same context). The IV is fresh unless one is given (a synthetic IV, for a
 * value that must seal to the same bytes each time).
 */
export function sealWith(
  key: Buffer,
  plain: string | Buffer,
  { context, iv = randomBytes(12) }: { context?: string; iv?: Buffer } = {},
): string {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (context !== undefined) cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([
    cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain),
    cipher.final(),
  ]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** What `sealWith` sealed under this key and context, or null when it is not such a seal. */
export function openWith(key: Buffer, sealed: string, context?: string): Buffer | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 28) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    if (context !== undefined) decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  } catch {
    return null;
  }
}
