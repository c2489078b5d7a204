import { keyOfStored, keyRing, type RingKey, withKeyId } from '../config/key-ring.ts';
import { derivedKey, keyedTag, openWith, sealWith } from '../config/keyed-crypto.ts';
import { secretKeys } from '../config/secrets.ts';

/**
 * The two tools that keep survey answers apart from the people who gave them, keyed by SURVEY_SECRET
 * (kept outside the table, like GRIEVANCE_SECRET; docs/surveys.md), exactly as the grievance channel's
 * shared/grievances/anonymity.ts:
 * - tags: HMAC-SHA256 of a person and one run of one survey: the address of the person's participation
 *   record. The service recomputes it for the caller; a table reader without the secret can neither
 *   invert it nor tell that two tags belong to one person.
 * - seals: AES-256-GCM with a fresh IV, bound to their context, for what the service must recover (a
 *   person's own answer, to show it to them and to take it out of the roll-ups when they replace it; the
 *   roll-ups themselves; free-text answers).
 * The secret may be a key ring: new tags and seals use its current key; lookups try every key.
 */
type Purpose = 'tags' | 'seals';

const keyFor = (ringKey: RingKey, purpose: Purpose): Buffer => derivedKey(ringKey.key, 'workplace-surveys', purpose);

const ring = () => keyRing(secretKeys('survey'));

const tagWith = (ringKey: RingKey, parts: string[]) => withKeyId(ringKey, keyedTag(keyFor(ringKey, 'tags'), parts));

/** The address of a person's participation record in one run of a survey (current key). */
export const participationTag = (userId: string, surveyId: string, run: number) =>
  tagWith(ring()[0]!, ['participation', userId, surveyId, String(run)]);
/** The same under every key of the ring: what a lookup tries. */
export const participationTags = (userId: string, surveyId: string, run: number) =>
  ring().map((k) => tagWith(k, ['participation', userId, surveyId, String(run)]));

/** Encrypts `text` for this context, with the ring's current key. */
export function seal(text: string, context: string): string {
  const current = ring()[0]!;
  return withKeyId(current, sealWith(keyFor(current, 'seals'), text, { context }));
}

/** Decrypts a seal made for this context; null when it is not one. */
export function unseal(sealed: string | undefined | null, context: string): string | null {
  if (!sealed) return null;
  const made = keyOfStored(ring(), sealed);
  if (!made) return null;
  return openWith(keyFor(made.key, 'seals'), made.value, context)?.toString('utf8') ?? null;
}

/** Seals a JSON value. */
export const sealJson = (value: unknown, context: string) => seal(JSON.stringify(value), context);
/** Opens a JSON seal; null when it is not one. */
export function unsealJson<T>(sealed: string | undefined | null, context: string): T | null {
  const text = unseal(sealed, context);
  return text === null ? null : (JSON.parse(text) as T);
}

/**
 * The sort key word of one slice's roll-up: a keyed tag of the survey, dimension and value, so a table
 * reader cannot tell which department (team, place, manager) a roll-up counts.
 */
export const sliceTag = (surveyId: string, dimension: string, value: string | null) =>
  keyedTag(keyFor(ring()[0]!, 'tags'), ['slice', surveyId, dimension, value ?? '']).slice(0, 22);
