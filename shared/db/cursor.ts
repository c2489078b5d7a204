import { createHash, createHmac } from 'node:crypto';
import { openWith, sealWith } from '../config/keyed-crypto.ts';
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
 *
 * The nonce is synthetic (an HMAC of the sealed text under a key of its own), so the same position of
 * the same list always seals to the same cursor: a page that did not change answers the same bytes,
 * and so the same strong ETag (the public list's caching, shared/office-updates/public-view.ts). A
 * nonce repeats only for the same text, which then seals to the same cursor: nothing new is revealed.
 */
type Sealed = { s: string; k: Record<string, unknown> };

const derivedKeys = new Map<string, Buffer>();
/** A key derived from a secret key for one use (each a pure function of the secret: memoised). */
const derived = (use: 'cursor' | 'cursor-nonce', secret: string) => {
  const name = `${use}:${secret}`;
  let key = derivedKeys.get(name);
  if (!key) {
    key = createHash('sha256').update(name).digest();
    derivedKeys.set(name, key);
  }
  return key;
};
/** The AES keys of the ring, current first. */
const keys = () => secretKeys('cursor').map((k) => derived('cursor', k));

export function encodeCursor(scope: string, lastKey: Record<string, unknown> | undefined): string | null {
  if (!lastKey) return null;
  const plain = Buffer.from(JSON.stringify({ s: scope, k: lastKey } satisfies Sealed));
  const current = secretKeys('cursor')[0];
  const iv = createHmac('sha256', derived('cursor-nonce', current)).update(plain).digest().subarray(0, 12);
  return sealWith(derived('cursor', current), plain, { iv });
}

export function decodeCursor(scope: string, cursor: string | undefined): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  const badCursor = () => invalid(['cursor is not valid for this list']);
  if (cursor.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length < 29) throw badCursor();
  let plain: Buffer | null = null;
  for (const key of keys()) plain ??= openWith(key, cursor);
  if (!plain) throw badCursor();
  try {
    const sealed = JSON.parse(plain.toString('utf8')) as Sealed;
    if (sealed.s !== scope || !sealed.k || typeof sealed.k !== 'object') throw badCursor();
    return sealed.k;
  } catch {
    throw badCursor();
  }
}
