import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../shared/db/cursor.ts';
import { DomainError } from '../../shared/errors.ts';
import { toHttpError } from '../../shared/http/middlewares/http-errors.ts';

const key = { pk: 'NOTIF#a', sk: 'N#0001' };

describe('cursors', () => {
  it('round-trips a key within its scope', () => {
    const c = encodeCursor('scope-a', key)!;
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    // Sealed, not encoded: the key's text is not in it ('#' is not base64url, so finding it could only
    // mean the key was copied in the clear, never an accident of the sealed bytes).
    expect(c).not.toContain(key.pk);
    // The same position of the same list seals to the same cursor (a page that did not change keeps
    // its bytes and its ETag); another position or another list to another one.
    expect(encodeCursor('scope-a', key)).toBe(c);
    expect(encodeCursor('scope-a', { ...key, sk: 'N#0002' })).not.toBe(c);
    expect(encodeCursor('scope-b', key)).not.toBe(c);
    expect(decodeCursor('scope-a', c)).toEqual(key);
  });

  it('is null at the end of a list', () => {
    expect(encodeCursor('scope-a', undefined)).toBeNull();
  });

  it.each([
    ['garbage', 'not a cursor'],
    ['base64 of plain JSON', Buffer.from(JSON.stringify({ s: 'scope-a', k: key })).toString('base64url')],
    ['too short', 'abc'],
  ])('rejects a forged cursor (%s) with a 400', (_, forged) => {
    expect(() => decodeCursor('scope-a', forged)).toThrow(DomainError);
    try {
      decodeCursor('scope-a', forged);
    } catch (e) {
      expect(toHttpError(e).statusCode).toBe(400);
    }
  });

  it('rejects a tampered cursor', () => {
    const c = encodeCursor('scope-a', key)!;
    const bytes = Buffer.from(c, 'base64url');
    bytes[bytes.length - 1] ^= 1;
    expect(() => decodeCursor('scope-a', bytes.toString('base64url'))).toThrow(DomainError);
  });

  it('refuses a cursor from another list', () => {
    const c = encodeCursor('scope-a', key)!;
    expect(() => decodeCursor('scope-b', c)).toThrow(DomainError);
  });

  describe('while the cursor secret is rotated', () => {
    const current = process.env.CURSOR_SECRET!;
    const next = 'a-new-cursor-secret-of-enough-length';
    const withSecret = <T>(value: string, f: () => T): T => {
      process.env.CURSOR_SECRET = value;
      try {
        return f();
      } finally {
        process.env.CURSOR_SECRET = current;
      }
    };
    const ring = JSON.stringify({ keys: [next, current] });

    it('seals new cursors with the new key and still opens those sealed with the previous one', () => {
      const old = encodeCursor('scope-a', key)!;
      const fresh = withSecret(ring, () => encodeCursor('scope-a', key)!);
      withSecret(ring, () => {
        expect(decodeCursor('scope-a', old)).toEqual(key);
        expect(decodeCursor('scope-a', fresh)).toEqual(key);
      });
      // Sealed with the new key: the previous secret alone cannot open it.
      expect(() => decodeCursor('scope-a', fresh)).toThrow(DomainError);
    });

    it('refuses cursors of a key the ring dropped, and a ring without keys', () => {
      const old = encodeCursor('scope-a', key)!;
      withSecret(JSON.stringify({ keys: [next] }), () => {
        expect(() => decodeCursor('scope-a', old)).toThrow(DomainError);
      });
      expect(() => withSecret(JSON.stringify({ keys: [] }), () => encodeCursor('scope-a', key))).toThrow(/key ring/);
    });
  });
});
