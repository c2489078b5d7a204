import { derivedKey, keyedTag } from '../config/keyed-crypto.ts';
import { secret } from '../config/secrets.ts';

/**
 * The keyed hashes of Idempotency-Key records, under IDEMPOTENCY_SECRET: a key of their own, so the
 * creating routes (upload routes that parse hostile files among them) hold no grievance key.
 */
const tag = (kind: string, ...parts: string[]) =>
  keyedTag(derivedKey(secret('idempotency'), 'workplace-idempotency', 'tags'), [kind, ...parts]);

/**
 * Addresses a person's idempotency record for one `Idempotency-Key`: without the secret it can be
 * neither inverted nor linked to the person's other records.
 */
export const idempotencyKeyTag = (userId: string, idempotencyKey: string) =>
  tag('idempotency-key', userId, idempotencyKey);
/**
 * Fingerprints a request (canonical JSON) for the "same key, other request" check. Keyed, because
 * request bodies can hold secrets (a new member's password) that a plain hash would expose to guessing.
 */
export const requestFingerprint = (canonicalRequest: string) => tag('idempotency-request', canonicalRequest);
