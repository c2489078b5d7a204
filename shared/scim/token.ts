import { createHash, timingSafeEqual } from 'node:crypto';
import { secretKeys } from '../config/secrets.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Whether an `Authorization` header carries the SCIM token (`Bearer <token>`). While the token is
 * rotated its secret is a key ring (`{"keys": ["<new>", "<previous>"]}`): every token of the ring is
 * accepted until the ring drops it. Compared in constant time.
 */
export function isScimToken(authorization: string | undefined): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const given = digest(match[1]!);
  let ok = false;
  for (const key of secretKeys('scim')) if (timingSafeEqual(given, digest(key))) ok = true;
  return ok;
}
