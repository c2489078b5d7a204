import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { env } from '../config/env.ts';

/** scrypt with a per-password salt; parameters are stored with the hash so they can be raised later. */
const N = 16384;
const R = 8;
const P = 1;
const LENGTH = 32;

/**
 * The cost new hashes get: N = 16384, except in a local runtime started by the test suite, which may
 * lower it (`LOCAL_TEST_SCRYPT_N`, a power of two): a test run creates and signs in thousands of people,
 * and at full cost their hashing was over half the time its requests took. Deployed functions never
 * read the variable (`APP_RUNTIME` is not `local` there), nor does `npm start` set it.
 */
export function scryptCost(): number {
  const lowered = env.runtime === 'local' ? Number(process.env.LOCAL_TEST_SCRYPT_N) : Number.NaN;
  return Number.isInteger(lowered) && lowered >= 2 && (lowered & (lowered - 1)) === 0 ? lowered : N;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const n = scryptCost();
  const key = await derive(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash nobody's password matches: compared against when the e-mail is unknown, so timing says nothing. */
let decoy: string | undefined;
const decoyHash = () =>
  (decoy ??= `scrypt$${scryptCost()}$${R}$${P}$${randomBytes(16).toString('base64url')}$${randomBytes(LENGTH).toString('base64url')}`);

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = (stored ?? decoyHash()).split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== undefined;
}
