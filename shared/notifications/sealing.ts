import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { secret } from '../config/secrets.ts';

/**
 * Seals notification content at rest under NOTIFICATION_SECRET (AES-256-GCM, fresh IV, bound to the
 * notification by its context). Every notification is stored the same way, whatever its kind, so no
 * attribute tells a grievance notification from another. A key of its own: the functions that list
 * or stream notifications hold this key, never the grievance key.
 */
const derived = new Map<string, Buffer>();
function key(): Buffer {
  const s = secret('notification');
  let k = derived.get(s);
  if (!k) {
    k = Buffer.from(hkdfSync('sha256', s, 'workplace-notifications', 'seals', 32));
    derived.set(s, k);
  }
  return k;
}

export function sealNotification(text: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Null when `sealed` is not a seal of this context under this key. */
export function unsealNotification(sealed: string | undefined | null, context: string): string | null {
  if (!sealed) return null;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key(), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
