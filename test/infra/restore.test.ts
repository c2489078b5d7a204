import { beforeAll, describe, expect, it } from 'vitest';
import { FULL_CONTEXT, resourcesOf, SYNTH_TIMEOUT, type Synthesized, synthesize } from './synth.ts';

/**
 * Serving from a table restored from a backup (docs/deployment.md, "Restoring the table"): a
 * point-in-time restore is a new table of another name; the two settings point every function, role
 * and the change feed at it, and the data stack no longer owns a table (the one it created stays,
 * retained, for the operator to delete).
 */
const RESTORED = 'Workplace-table-restored-20261124';
const STREAM = `arn:aws:dynamodb:eu-west-1:123456789012:table/${RESTORED}/stream/2026-11-24T10:00:00.000`;
let s: Synthesized;
beforeAll(async () => {
  s = await synthesize(
    {},
    {
      cfnValidation: false,
      context: { ...FULL_CONTEXT, 'workplace:restoredTableName': RESTORED, 'workplace:restoredTableStreamArn': STREAM },
    },
  );
}, SYNTH_TIMEOUT);

describe('a restored table', () => {
  it('is served by every function, granted to every role and fed to the change feed', () => {
    const tables = [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::DynamoDB::Table'));
    expect(tables).toEqual([]);
    const functions = [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::Lambda::Function'));
    const tableNames = new Set(functions.map(([, f]) => f.Properties?.Environment?.Variables?.TABLE_NAME));
    expect([...tableNames]).toEqual([RESTORED]);
    const policies = JSON.stringify(
      [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::IAM::Role').map(([, r]) => r.Properties?.Policies)),
    );
    expect(policies).toContain(`:table/${RESTORED}`);
    expect(policies).not.toContain(':table/Workplace-table"');
    const parameters = [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::SSM::Parameter'));
    const stream = parameters.find(([id]) => id.startsWith('TableStreamArnParameter'));
    expect(stream?.[1].Properties?.Value).toBe(STREAM);
  });

  it(
    'needs its stream ARN',
    async () => {
      await expect(
        synthesize({}, { cfnValidation: false, context: { ...FULL_CONTEXT, 'workplace:restoredTableName': RESTORED } }),
      ).rejects.toThrow(/restoredTableStreamArn/);
    },
    SYNTH_TIMEOUT,
  );
});
