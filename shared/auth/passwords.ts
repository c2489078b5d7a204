import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt with a per-password salt; parameters are stored with the hash so they can be raised later. */
const N = 16384;
const R = 8;
const P = 1;
const LENGTH = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash nobody's password matches: compared against when the e-mail is unknown, so timing says nothing. */
const DECOY = `scrypt$${N}$${R}$${P}$${randomBytes(16).toString('base64url')}$${randomBytes(LENGTH).toString('base64url')}`;

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = (stored ?? DECOY).split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== undefined;
}
