import { getAudience, peopleBelow, requireRule, ruleMembers } from '../audiences/audiences.ts';
import type { Rule } from '../audiences/rule.ts';
import { DomainError, forbidden, invalid, unless } from '../errors.ts';
import type { Viewer } from './people.ts';

/**
 * The check of a post's or an event's `audience` (docs/audiences.md, "Who may target whom"), apart
 * from the background work (audience.ts) so a function that only checks carries only this.
 */

/** The audience a post is created with, checked: its rule (a named audience's, copied) and its id. */
export async function resolveAudience(
  caller: Viewer,
  input: { id?: string; rule?: unknown; dynamic?: boolean },
): Promise<{ rule: Rule; audienceId: string | null; dynamic: boolean }> {
  if ((input.id === undefined) === (input.rule === undefined))
    throw invalid(['audience: give exactly one of id and rule']);
  let rule: Rule;
  let audienceId: string | null = null;
  if (input.id !== undefined) {
    const found = await getAudience(input.id).catch(unless('not-found'));
    if (!found) throw invalid([`audience.id: no such audience: ${input.id}`]);
    rule = found.rule;
    audienceId = found.id;
  } else {
    try {
      rule = requireRule(input.rule);
    } catch (err) {
      throw prefixed(err);
    }
  }
  const members = await ruleMembers(rule, { check: input.rule !== undefined }).catch((err) => {
    throw prefixed(err);
  });
  if (caller.role !== 'super_admin') {
    const ids = members.map((m) => m.id);
    if (!ids.includes(caller.userId)) {
      const below = await peopleBelow(caller.userId);
      if (ids.length === 0 || !ids.every((id) => below.has(id)))
        throw forbidden('You may target only an audience you are in, or people who are all under you.');
    }
  }
  return { rule, audienceId, dynamic: !!input.dynamic };
}

/** A rule's 400 names where it is in the post's body (`audience.rule…`). */
function prefixed(err: unknown): unknown {
  if (!(err instanceof DomainError) || err.kind !== 'invalid') return err;
  const reasons = Array.isArray(err.reasons) ? err.reasons : [err.reasons];
  return invalid(reasons.map((r) => `audience.${r}`));
}
