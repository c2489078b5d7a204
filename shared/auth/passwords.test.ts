import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, scryptCost, verifyPassword } from './passwords.ts';

const saved = { runtime: process.env.APP_RUNTIME, n: process.env.LOCAL_TEST_SCRYPT_N };
afterEach(() => {
  for (const [k, v] of [
    ['APP_RUNTIME', saved.runtime],
    ['LOCAL_TEST_SCRYPT_N', saved.n],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

describe('password hashing cost', () => {
  it('hashes at N = 16384 deployed, whatever LOCAL_TEST_SCRYPT_N says', async () => {
    delete process.env.APP_RUNTIME;
    process.env.LOCAL_TEST_SCRYPT_N = '1024';
    expect(scryptCost()).toBe(16384);
    const hash = await hashPassword('correct horse');
    expect(hash.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
  });

  it('hashes at N = 16384 locally unless a test run lowers it, and only to a power of two', () => {
    process.env.APP_RUNTIME = 'local';
    delete process.env.LOCAL_TEST_SCRYPT_N;
    expect(scryptCost()).toBe(16384);
    for (const bad of ['1000', '1', '0', '-1024', 'x', '']) {
      process.env.LOCAL_TEST_SCRYPT_N = bad;
      expect(scryptCost(), bad).toBe(16384);
    }
    process.env.LOCAL_TEST_SCRYPT_N = '1024';
    expect(scryptCost()).toBe(1024);
  });

  it('verifies a hash by the cost stored with it, so hashes of either cost keep working', async () => {
    process.env.APP_RUNTIME = 'local';
    process.env.LOCAL_TEST_SCRYPT_N = '1024';
    const cheap = await hashPassword('pw-1');
    delete process.env.LOCAL_TEST_SCRYPT_N;
    const full = await hashPassword('pw-2');
    expect(cheap.split('$')[1]).toBe('1024');
    expect(full.split('$')[1]).toBe('16384');
    expect(await verifyPassword('pw-1', cheap)).toBe(true);
    expect(await verifyPassword('pw-2', full)).toBe(true);
    expect(await verifyPassword('pw-2', cheap)).toBe(false);
    expect(await verifyPassword('pw-1', undefined)).toBe(false);
  });
});
