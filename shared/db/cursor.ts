import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { secretKeys } from '../config/secrets.ts';
import { invalid } from '../errors.ts';

/**
 * Cursors are the last evaluated key of a query, sealed with AES-256-GCM: clients cannot read them,
 * and a forged or altered one fails authentication (400). The sealed value also names the query it
 * belongs to (`scope`: index, partition and filters), so a cursor from one list cannot open another.
 * The cursor secret may be a key ring while it is rotated (shared/config/secrets.ts): a cursor is
 * sealed with the current key and opened with whichever key of the ring authenticates it, so cursors a
 * client holds keep working until the previous key leaves the ring (docs/deployment.md, "Rotating the
 * secrets").
 */
type Sealed = { s: string; k: Record<string, unknown> };

const derivedKeys = new Map<string, Buffer>();
/** The AES keys of the ring, current first (each a pure function of its secret key: memoised). */
const keys = () =>
  secretKeys('cursor').map((k) => {
    let key = derivedKeys.get(k);
    if (!key) {
      key = createHash('sha256').update(`cursor:${k}`).digest();
      derivedKeys.set(k, key);
    }
    return key;
  });

/** The sealed payload, if this key authenticates it. */
function open(raw: Buffer, key: Buffer): Buffer | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  } catch {
    return null;
  }
}

export function encodeCursor(scope: string, lastKey: Record<string, unknown> | undefined): string | null {
  if (!lastKey) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys()[0], iv);
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
  let plain: Buffer | null = null;
  for (const key of keys()) plain ??= open(raw, key);
  if (!plain) throw badCursor();
  try {
    const sealed = JSON.parse(plain.toString('utf8')) as Sealed;
    if (sealed.s !== scope || !sealed.k || typeof sealed.k !== 'object') throw badCursor();
    return sealed.k;
  } catch {
    throw badCursor();
  }
}
