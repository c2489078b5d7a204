import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_WRITE_ACTIONS } from '../../shared/api/access-policy.ts';
import { resourcesOf, type Synthesized, synthesize } from './synth.ts';

/**
 * The roles that may still write anywhere in the table (Put/Update/Delete/BatchWrite on the table
 * without a `dynamodb:LeadingKeys` condition). README ("Least privilege on the table") lists why
 * each area's still do; narrowing one lowers the count here, and a new one fails this test.
 */
const TABLE_WIDE_WRITERS_LIMIT = 88;

let s: Synthesized;
beforeAll(async () => {
  s = await synthesize({}, { cfnValidation: false });
}, 300_000);

/** Roles (stack/logical id) with an unconditioned table-wide write. */
function tableWideWriters(): string[] {
  const found: string[] = [];
  for (const [stack, t] of s.templates) {
    for (const [id, role] of resourcesOf(t, 'AWS::IAM::Role')) {
      const statements = (role.Properties?.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement);
      const wide = statements.some((st: any) => {
        const actions: string[] = Array.isArray(st.Action) ? st.Action : [st.Action];
        const resources = JSON.stringify(st.Resource);
        return (
          st.Effect === 'Allow' &&
          !st.Condition &&
          actions.some((a) => TABLE_WRITE_ACTIONS.includes(a)) &&
          resources.includes(':table/') &&
          !resources.includes('/index/')
        );
      });
      if (wide) found.push(`${stack}/${id}`);
    }
  }
  return found;
}

describe('least privilege on the table', () => {
  it(`leaves at most ${TABLE_WIDE_WRITERS_LIMIT} roles with unconditioned table-wide writes`, () => {
    const writers = tableWideWriters();
    expect(writers.length, writers.join('\n')).toBeLessThanOrEqual(TABLE_WIDE_WRITERS_LIMIT);
    // Read-only session routes hold their session refresh only on session items.
    expect(writers.length).toBeGreaterThan(0);
  });
});
