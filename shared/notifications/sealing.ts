import { derivedKey, openWith, sealWith } from '../config/keyed-crypto.ts';
import { secret } from '../config/secrets.ts';

/**
 * Seals notification content at rest under NOTIFICATION_SECRET (AES-256-GCM, fresh IV, bound to the
 * notification by its context). Every notification is stored the same way, whatever its kind, so no
 * attribute tells a grievance notification from another. A key of its own: the functions that list
 * or stream notifications hold this key, never the grievance key.
 */
const key = () => derivedKey(secret('notification'), 'workplace-notifications', 'seals');

export const sealNotification = (text: string, context: string): string => sealWith(key(), text, { context });

/** Null when `sealed` is not a seal of this context under this key. */
export function unsealNotification(sealed: string | undefined | null, context: string): string | null {
  if (!sealed) return null;
  return openWith(key(), sealed, context)?.toString('utf8') ?? null;
}
