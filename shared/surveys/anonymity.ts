import { keyedAnonymity } from '../config/keyed-anonymity.ts';
import { keyedTag } from '../config/keyed-crypto.ts';
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
 * The secret may be a key ring: new tags and seals use its current key; lookups try every key. Both are
 * made by shared/config/keyed-anonymity.ts, as the grievance channel's are, under this secret and salt.
 */
// Pure: a bundle that imports this module but uses none of it drops it, and with it the secret's grant.
const keys = /* @__PURE__ */ keyedAnonymity('workplace-surveys', () => secretKeys('survey'));

/** The address of a person's participation record in one run of a survey (current key). */
export const participationTag = (userId: string, surveyId: string, run: number) =>
  keys.tag('participation', userId, surveyId, String(run));
/** The same under every key of the ring: what a lookup tries. */
export const participationTags = (userId: string, surveyId: string, run: number) =>
  keys.tags('participation', userId, surveyId, String(run));

/** Encrypts `text` for this context, with the ring's current key. */
export const seal = (text: string, context: string): string => keys.seal(text, context);
/** Decrypts a seal made for this context; null when it is not one. */
export const unseal = (sealed: string | undefined | null, context: string): string | null =>
  keys.unseal(sealed, context);

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
  keyedTag(keys.currentTagKey(), ['slice', surveyId, dimension, value ?? '']).slice(0, 22);
