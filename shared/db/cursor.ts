import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { secret } from '../config/secrets.ts';
import { invalid } from '../errors.ts';

/**
 * Cursors are the last evaluated key of a query, sealed with AES-256-GCM: clients cannot read them,
 * and a forged or altered one fails authentication (400). The sealed value also names the query it
 * belongs to (`scope`: index, partition and filters), so a cursor from one list cannot open another.
 */
type Sealed = { s: string; k: Record<string, unknown> };

const key = () =>
  createHash('sha256')
    .update(`cursor:${secret('cursor')}`)
    .digest();

export function encodeCursor(scope: string, lastKey: Record<string, unknown> | undefined): string | null {
  if (!lastKey) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const plain = Buffer.from(JSON.stringify({ s: scope, k: lastKey } satisfies Sealed));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function decodeCursor(scope: string, cursor: string | undefined): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  const badCursor = () => invalid(['cursor is not valid for this list']);
  if (cursor.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length < 29) throw badCursor();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
    const sealed = JSON.parse(plain.toString('utf8')) as Sealed;
    if (sealed.s !== scope || !sealed.k || typeof sealed.k !== 'object') throw badCursor();
    return sealed.k;
  } catch {
    throw badCursor();
  }
}
