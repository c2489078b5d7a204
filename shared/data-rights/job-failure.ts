import { declarations } from '../db/entity.ts';

/**
 * Why a data-rights job's step failed, in words that hold no personal data (docs/people-data.md):
 * the step, a fixed description of the kind of failure, and the kinds of item
 * the error names. An error's message may hold keys, ids or addresses (erasure.ts names the item that
 * kept changing by its key), so it is never copied: only matched against known failures, with the
 * error's class name (`TypeError`, `ValidationException`) for the rest.
 */
/** The metric counting data-rights jobs marked `failed` (work.ts; infra/stacks/data-stack.ts alarms on it). */
export const JOBS_FAILED_METRIC = 'DataRightsJobsFailed';

const KNOWN: [RegExp, string][] = [
  [/kept changing/i, 'an item kept changing'],
  [/no special erasure|no declaration/i, 'a kind of item it cannot handle'],
  [/start(ing)? key|key element does not match the schema/i, 'an invalid position in the table walk'],
  [/NoSuchKey|specified key does not exist/i, 'an object it needs is missing'],
];

/** The kind of an error: a known failure's description, or the error's class name. */
export function failureKind(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const name = err instanceof Error ? err.name : '';
  for (const [pattern, said] of KNOWN) if (pattern.test(message) || pattern.test(name)) return said;
  return /^[A-Za-z]{1,60}$/.test(name) ? name : 'Error';
}

/** The reason recorded on a job whose step failed: `<step>: <kind of failure> (<kinds of item>)`. */
export function failureReason(step: string, err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const kinds = [...declarations.keys()].filter((k) => new RegExp(`\\b${k}\\b`).test(message));
  return `${step}: ${failureKind(err)}${kinds.length ? ` (${kinds.join(', ')})` : ''}`;
}
