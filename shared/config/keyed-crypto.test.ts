import { describe, expect, it } from 'vitest';
import { derivedKey, keyedTag, openWith, sealWith } from './keyed-crypto.ts';

/**
 * Tags and seals are stored (grievance tags and seals, notification content, idempotency records,
 * cursors clients hold), so their forms are pinned: the values below were made by release 0.3.0, before
 * these primitives had a module of their own, and every later release must recompute and open them.
 */
describe('keyed primitives', () => {
  const grievanceTags = derivedKey('griev-orig-0123456789', 'workplace-grievances', 'tags');
  const grievanceSeals = derivedKey('griev-new-0123456789', 'workplace-grievances', 'seals');
  const notificationSeals = derivedKey('notif-secret-1', 'workplace-notifications', 'seals');

  it('recomputes a tag stored by 0.3.0', () => {
    expect(keyedTag(grievanceTags, ['raiser', 'u1', 'g1'])).toBe('1oC3oZ51qcR7RdswD2kX6dfGXJTUwGzDNLzr3VIIgwY');
    expect(
      keyedTag(derivedKey('idem-secret-1', 'workplace-idempotency', 'tags'), ['idempotency-key', 'u1', 'key-1']),
    ).toBe('5TzOQXCvUhVd-JCabMFAUGl3olSDwifDHLMtdoQW63g');
  });

  it('opens seals stored by 0.3.0, for their context only', () => {
    const grievance = 'lsyPagQlIG3CCgDJgiUmw0aBp1FzvBY9jomQbYwH9GNUOMxdrVb9nU0BRQ';
    expect(openWith(grievanceSeals, grievance, 'ctx1')?.toString()).toBe('hello grievance');
    expect(openWith(grievanceSeals, grievance, 'ctx2')).toBeNull();
    expect(openWith(notificationSeals, grievance, 'ctx1')).toBeNull();
    const notification = 'DFWMtUhIM9c1uIksAQd7jQA5Ix4EgF85MkCVPtXk3TYhY-z-TMAa';
    expect(openWith(notificationSeals, notification, 'nctx')?.toString()).toBe('hello notif');
  });

  it('keys differ by use, and a tag by its parts', () => {
    expect(derivedKey('k-0123456789abcdef', 'a', 'tags').equals(derivedKey('k-0123456789abcdef', 'a', 'seals'))).toBe(
      false,
    );
    expect(derivedKey('k-0123456789abcdef', 'a', 'tags').equals(derivedKey('k-0123456789abcdef', 'b', 'tags'))).toBe(
      false,
    );
    expect(keyedTag(grievanceTags, ['a', 'bc'])).not.toBe(keyedTag(grievanceTags, ['ab', 'c']));
  });

  it('seals with a fresh IV unless one is given, and refuses what was altered', () => {
    const first = sealWith(grievanceSeals, 'same text', { context: 'c' });
    expect(sealWith(grievanceSeals, 'same text', { context: 'c' })).not.toBe(first);
    const iv = Buffer.alloc(12, 7);
    expect(sealWith(grievanceSeals, 'same text', { iv })).toBe(sealWith(grievanceSeals, 'same text', { iv }));
    const raw = Buffer.from(first, 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(openWith(grievanceSeals, raw.toString('base64url'), 'c')).toBeNull();
    expect(openWith(grievanceSeals, 'short', 'c')).toBeNull();
    expect(openWith(grievanceSeals, first, 'c')?.toString()).toBe('same text');
  });
});
