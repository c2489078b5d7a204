import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { FULL_CONTEXT, SYNTH_TIMEOUT, type Synthesized, synthesize } from './synth.ts';

/**
 * Item: no stack exports a value another imports. CloudFormation refuses to change or remove an
 * export another stack imports, so a second deployment with other settings could wedge. Two
 * syntheses with different settings (alarm topic supplied or created, first admin or none, other
 * origins) show that nothing a deployed stack of the first uses is taken away by the second.
 */
let first: Synthesized;
let second: Synthesized;
beforeAll(async () => {
  first = await synthesize({}, { cfnValidation: false, context: FULL_CONTEXT });
  const { 'workplace:adminEmail': _admin, 'workplace:mailFrom': _mail, ...rest } = FULL_CONTEXT;
  second = await synthesize(
    {},
    {
      cfnValidation: false,
      context: {
        ...rest,
        'workplace:alarmTopicArn': 'arn:aws:sns:eu-west-1:123456789012:oncall',
        'workplace:allowedOrigins': 'https://web.example.org,https://admin.example.org',
      },
    },
  );
}, SYNTH_TIMEOUT);

const json = (t: Template) =>
  t.toJSON() as { Resources: Record<string, any>; Outputs?: Record<string, any>; Parameters?: Record<string, any> };

/** Every `Fn::GetStackOutput` (CDK's weak references: read at deployment, never locked) and SSM parameter a template reads. */
function reads(t: Template): { outputs: string[]; parameters: string[] } {
  const outputs = [
    ...JSON.stringify(json(t).Resources).matchAll(
      /"Fn::GetStackOutput":\{"StackName":"([^"]+)","Region":"[^"]*","OutputName":"([^"]+)"\}/g,
    ),
  ].map((m) => `${m[1]}/${m[2]}`);
  const parameters = Object.values(json(t).Parameters ?? {})
    .filter((p: any) => String(p.Type).startsWith('AWS::SSM::Parameter::Value'))
    .map((p: any) => p.Default as string)
    // The CDK bootstrap's own parameter, not another stack's.
    .filter((name) => !name.startsWith('/cdk-bootstrap/'));
  return { outputs, parameters };
}

/** What a synthesis provides: outputs by stack, SSM parameters created, physical names of the shared resources. */
function provides(s: Synthesized) {
  const outputs = new Set<string>();
  const parameters = new Set<string>();
  const names = new Map<string, unknown>();
  for (const [stack, t] of s.templates) {
    for (const name of Object.keys(json(t).Outputs ?? {})) outputs.add(`${stack}/${name}`);
    for (const [id, r] of Object.entries(json(t).Resources)) {
      if (r.Type === 'AWS::SSM::Parameter') parameters.add(r.Properties.Name);
      const physical =
        r.Properties?.TableName ??
        r.Properties?.BucketName ??
        (r.Type === 'AWS::SecretsManager::Secret' ? r.Properties?.Name : undefined) ??
        r.Properties?.TopicName;
      if (physical !== undefined)
        names.set(`${stack}/${id}`, { physical, retain: r.DeletionPolicy === 'Retain', type: r.Type });
    }
  }
  return { outputs, parameters, names };
}

describe('no named exports between stacks', () => {
  it('has no export and no Fn::ImportValue in any stack, whatever the settings', () => {
    for (const s of [first, second]) {
      for (const [stack, t] of s.templates) {
        const outputs = Object.entries(json(t).Outputs ?? {});
        expect(
          outputs.filter(([, o]) => o.Export).map(([k]) => k),
          stack,
        ).toEqual([]);
        expect(JSON.stringify(json(t)), stack).not.toContain('Fn::ImportValue');
      }
    }
  });

  it('reads what another stack provides only where that stack still provides it after a change of settings', () => {
    const now = provides(second);
    for (const s of [first, second]) {
      for (const [stack, t] of s.templates) {
        const { outputs, parameters } = reads(t);
        for (const o of outputs) expect(now.outputs.has(o), `${stack} reads ${o}`).toBe(true);
        for (const p of parameters) expect(now.parameters.has(p), `${stack} reads ${p}`).toBe(true);
      }
    }
  });

  it('keeps the physical names of what is shared, and retains what a change of settings removes', () => {
    const before = provides(first).names;
    const after = provides(second).names;
    expect(before.size).toBeGreaterThan(4);
    for (const [id, was] of before) {
      const now = after.get(id);
      if (now) expect(now, id).toEqual(was);
      // The first admin's password secret goes when workplace:adminEmail does: retained, so the
      // background stack deployed before still finds it until its own update. The created alarm
      // topic goes when workplace:alarmTopicArn is given: alarm actions are plain ARNs, which
      // CloudFormation does not track, and every alarm stack is updated to the given topic.
      else if ((was as { type: string }).type !== 'AWS::SNS::Topic')
        expect((was as { retain: boolean }).retain, id).toBe(true);
    }
  });

  it(
    'names the shared resources after the prefix, so environments of one account do not collide',
    async () => {
      const other = await synthesize(
        {},
        { cfnValidation: false, context: { ...FULL_CONTEXT, 'workplace:prefix': 'Staging' } },
      );
      const names = (s: Synthesized) =>
        [...provides(s).names.values()].map((n) => JSON.stringify((n as { physical: unknown }).physical));
      const mine = new Set(names(first));
      for (const n of names(other)) expect(mine.has(n), n).toBe(false);
      expect([...other.templates.keys()].every((k) => k.startsWith('Staging-'))).toBe(true);
    },
    SYNTH_TIMEOUT,
  );
});
