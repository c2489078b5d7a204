import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { builtLayerDir, ensureBundled, externalLayers, ROOT } from '../../infra/build/bundle.ts';
import { type BuildAppOptions, buildApp, type WorkplaceApp } from '../../infra/stacks/workplace-app.ts';

/**
 * How long a test or hook that synthesises may take: the app's 226 functions take tens of seconds
 * on a quiet machine and several times that on a loaded CI runner (a 60 s test timed out there).
 */
export const SYNTH_TIMEOUT = 300_000;

export const TEST_ENV = { account: '123456789012', region: 'eu-west-1' };

/** The context of cdk.json (feature flags and workplace settings), so tests see what `cdk synth` sees. */
export const cdkJsonContext = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context;

/**
 * The template tests' own settings (cdk.json holds feature flags only; deployments read
 * infra/environments/<name>.json, which refuses such placeholders).
 */
export const TEST_SETTINGS = { 'workplace:allowedOrigins': 'https://workplace.example.com' };

/** Every optional deployment setting, as `-c` context values (tests of the wiring they drive). */
export const FULL_CONTEXT = {
  'workplace:domainName': 'workplace.example.org',
  'workplace:certificateArn': 'arn:aws:acm:us-east-1:123456789012:certificate/0f6a9d2e-1111-4a4a-9b9b-123456789012',
  'workplace:fcmPlatformApplicationArn': 'arn:aws:sns:eu-west-1:123456789012:app/GCM/workplace-fcm',
  'workplace:apnsPlatformApplicationParameter': '/workplace/push/apns-application-arn',
  'workplace:mailFrom': 'Workplace <no-reply@workplace.example.org>',
  'workplace:alarmEmail': 'oncall@example.org',
  'workplace:adminEmail': 'admin@workplace.example.org',
  'workplace:companyTimezone': 'Europe/Berlin',
  'workplace:peopleRetentionDays': '400',
};

/**
 * The layers to synthesise with: the built folder, or a stand-in holding only the package's
 * package.json, so the layer wiring is checked on a fresh clone too. (Synthesis without a built layer
 * fails for real: the nag test checks that error.)
 */
export function layerDirsForTests(): Record<string, string> {
  const dirs: Record<string, string> = {};
  for (const pkg of Object.keys(externalLayers)) {
    let dir = builtLayerDir(pkg);
    if (!dir) {
      dir = mkdtempSync(join(tmpdir(), `${pkg}-layer-`));
      mkdirSync(join(dir, 'nodejs', 'node_modules', pkg), { recursive: true });
      writeFileSync(join(dir, 'nodejs', 'node_modules', pkg, 'package.json'), JSON.stringify({ name: pkg }));
    }
    dirs[pkg] = dir;
  }
  return dirs;
}

export interface Synthesized {
  app: App;
  built: WorkplaceApp;
  /** Every stack's template, by stack name. */
  templates: Map<string, Template>;
}

/**
 * Builds the app the way infra/app.ts does (bundling first unless dist/ is fresh; safe across test
 * workers) and synthesises it once. Assets are not staged (they are referenced in dist/ directly) and
 * carry their path in metadata, so tests can tell which bundle a function deploys.
 */
export async function synthesize(
  options: BuildAppOptions = {},
  { cfnValidation = true, context = {} }: { cfnValidation?: boolean; context?: Record<string, unknown> } = {},
): Promise<Synthesized> {
  await ensureBundled({ log: () => undefined });
  const app = new App({
    // CDK's built-in CloudFormation template validation (schema and lint rules; the bulk of synthesis
    // time). It fails synthesis on errors here, as cdk.json enables validateAgainstDefaultRules.
    builtinCloudFormationValidation: cfnValidation,
    context: {
      ...cdkJsonContext(),
      ...TEST_SETTINGS,
      'aws:cdk:disable-asset-staging': true,
      'aws:cdk:enable-asset-metadata': true,
      ...context,
    },
  });
  const built = buildApp(app, { env: TEST_ENV, layerDirs: layerDirsForTests(), ...options });
  app.synth();
  const templates = new Map<string, Template>();
  for (const stack of built.stacks) templates.set(stack.stackName, Template.fromStack(stack));
  return { app, built, templates };
}

export type Resource = { Type: string; Properties?: Record<string, any>; Metadata?: Record<string, any> };

/** `[logicalId, resource]` of one type in a template. */
export const resourcesOf = (template: Template, type: string): [string, Resource][] =>
  Object.entries(template.findResources(type)) as [string, Resource][];
