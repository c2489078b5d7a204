import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleExternals } from '../../infra/build/bundle.ts';
import { type AnyRoute, handlerFile } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { FULL_CONTEXT, SYNTH_TIMEOUT, type Synthesized, synthesize } from './synth.ts';

/**
 * cdk-nag v3 (AwsSolutions): a `NagPack` is a CDK policy-validation plugin; `validateScope(app)` runs
 * it over the synthesised construct tree and reports every finding not acknowledged in the code
 * (`Validations.of(construct).acknowledge({ id, reason })`).
 */
type Violation = ReturnType<AwsSolutionsChecks['validateScope']>['violations'][number];

const describeViolations = (violations: Violation[]) =>
  violations
    .map(
      (v) =>
        `${v.severity} ${v.ruleName}: ${v.description}\n  ${v.violatingResources.map((r) => r.constructPath).join('\n  ')}`,
    )
    .join('\n');

async function nagReport(options: Parameters<typeof synthesize>[0] = {}, context: Record<string, unknown> = {}) {
  // Template validation is the stacks test's concern; skipping it here halves the synthesis time.
  const synthesized = await synthesize(options, { cfnValidation: false, context });
  return { ...new AwsSolutionsChecks(synthesized.app).validateScope(synthesized.app), synthesized };
}

describe('cdk-nag AwsSolutions', () => {
  let violations: Violation[];
  let synthesized: Synthesized;
  beforeAll(async () => {
    ({ violations, synthesized } = await nagReport());
  }, SYNTH_TIMEOUT);

  it('reports no unacknowledged error for the whole app', () => {
    const errors = violations.filter((v) => v.severity === 'error');
    expect(errors, describeViolations(errors)).toEqual([]);
  });

  it('reports no unacknowledged warning either', () => {
    expect(violations, describeViolations(violations)).toEqual([]);
  });

  it(
    'fails synthesis when bundles import sharp but layers/sharp is not built, naming the fix',
    async () => {
      const importers = routes.filter((r) => bundleExternals(handlerFile(r)).includes('sharp'));
      expect(importers.length).toBeGreaterThan(0);
      // The tests otherwise synthesise with a stand-in layer (synth.ts); here, with none at all: the
      // synthesis itself fails (cdk.json turns error annotations into a failed validation), as
      // `npx cdk synth` and `npx cdk deploy` do.
      await expect(
        synthesize(
          { routes: routes.filter((r) => r.area === 'system' || importers.includes(r)), layerDirs: {} },
          { cfnValidation: false },
        ),
      ).rejects.toThrow(/layers\/sharp is not built.*npm run build:layers/);
      // With the layer (the stand-in of the main synthesis), no such error.
      expect(Annotations.fromStack(synthesized.built.data).findError('*', Match.stringLikeRegexp('layers/'))).toEqual(
        [],
      );
    },
    SYNTH_TIMEOUT,
  );

  it(
    'acknowledges the declared wildcards (bucket prefixes, SNS, SES) and nothing else, with every context value set',
    async () => {
      // A probe route declaring every kind of access, in place of the health route: the wildcard
      // resources it needs must be acknowledged by the construct itself. Every optional setting is on
      // (custom domain, push applications, mail identity, alarm e-mail, first admin).
      const probe = (r: AnyRoute): AnyRoute =>
        r.name === 'get-health'
          ? {
              ...r,
              access: {
                table: 'write',
                bucket: [
                  { prefix: 'avatars/', actions: ['read', 'write', 'delete'] },
                  { prefix: 'files/', actions: ['read'] },
                ],
                sns: true,
                ses: true,
              },
            }
          : r;
      const probeRoutes = routes.filter((r) => r.area === 'system').map(probe);
      expect(probeRoutes.some((r) => r.access?.bucket)).toBe(true);
      const report = await nagReport(
        { routes: probeRoutes },
        // With the API's own custom domain too (its execute-api endpoint disabled).
        { ...FULL_CONTEXT, 'workplace:apiCertificateArn': 'arn:aws:acm:eu-west-1:123456789012:certificate/regional' },
      );
      expect(report.violations, describeViolations(report.violations)).toEqual([]);
    },
    SYNTH_TIMEOUT,
  );
});
