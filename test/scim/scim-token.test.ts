import { afterEach, describe, expect, it } from 'vitest';
import { isScimToken } from '../../shared/scim/token.ts';

/** The SCIM token check (shared/scim/token.ts): one token, or a key ring while it is rotated. */
const saved = process.env.SCIM_TOKEN;
afterEach(() => {
  process.env.SCIM_TOKEN = saved;
});

describe('SCIM token', () => {
  it('accepts exactly the token, as a Bearer credential', () => {
    process.env.SCIM_TOKEN = 'the-scim-token-of-this-deployment';
    expect(isScimToken('Bearer the-scim-token-of-this-deployment')).toBe(true);
    expect(isScimToken('bearer the-scim-token-of-this-deployment')).toBe(true);
    expect(isScimToken('Bearer the-scim-token-of-this-deploymenT')).toBe(false);
    expect(isScimToken('Bearer the-scim-token')).toBe(false);
    expect(isScimToken('Basic the-scim-token-of-this-deployment')).toBe(false);
    expect(isScimToken('the-scim-token-of-this-deployment')).toBe(false);
    expect(isScimToken(undefined)).toBe(false);
    expect(isScimToken('')).toBe(false);
  });

  it('accepts every token of a key ring during a rotation, and the dropped one no more after it', () => {
    process.env.SCIM_TOKEN = JSON.stringify({ keys: ['the-new-scim-token-0123', 'the-old-scim-token-0123'] });
    expect(isScimToken('Bearer the-new-scim-token-0123')).toBe(true);
    expect(isScimToken('Bearer the-old-scim-token-0123')).toBe(true);
    process.env.SCIM_TOKEN = 'the-new-scim-token-0123';
    expect(isScimToken('Bearer the-new-scim-token-0123')).toBe(true);
    expect(isScimToken('Bearer the-old-scim-token-0123')).toBe(false);
  });
});
