import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assetDir,
  bundleExternals,
  bundleSizes,
  DIST_FUNCTIONS,
  entryDir,
  extraEntries,
} from '../../infra/build/bundle.ts';
import { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS } from '../../infra/constructs/route-function.ts';
import { pascal } from '../../infra/stacks/area-routes-stack.ts';
import { MAX_RESOURCES_PER_STACK, resourceCount, routesByArea } from '../../infra/stacks/workplace-app.ts';
import { type AnyRoute, handlerFile, routeKey } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { INDEXES, indexKeys, sortKeyType, TTL_ATTRIBUTE } from '../../shared/db/table-definition.ts';
import { schedules, streamConsumers } from '../../shared/api/background.ts';
import { FULL_CONTEXT, type Resource, resourcesOf, type Synthesized, synthesize } from './synth.ts';

let s: Synthesized;
const prefix = () => s.built.config.prefix;
const areaStackName = (area: string) => `${prefix()}-Routes-${pascal(area)}`;
const areaTemplate = (area: string): Template => s.templates.get(areaStackName(area))!;
const expectedKey = (r: AnyRoute) => (r.path === '$default' ? '$default' : routeKey(r));

/** The function of a route in its area's template: by its description, then by its asset. */
function functionOf(r: AnyRoute): [string, Resource] {
  const matches = resourcesOf(areaTemplate(r.area), 'AWS::Lambda::Function').filter(([, f]) =>
    String(f.Properties?.Description ?? '').startsWith(`${expectedKey(r)}:`),
  );
  expect(matches, `function of ${r.area}/${r.name}`).toHaveLength(1);
  return matches[0];
}

/** Every IAM action the function's role is allowed (inline policies and attached policies). */
function actionsOf(template: Template, fn: Resource): string[] {
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  const role = template.toJSON().Resources[roleId] as Resource;
  const docs = [
    ...(role.Properties?.Policies ?? []).map((p: any) => p.PolicyDocument),
    ...resourcesOf(template, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties?.Roles ?? []).includes(`"${roleId}"`))
      .map(([, p]) => p.Properties!.PolicyDocument),
  ];
  return docs.flatMap((d: any) =>
    d.Statement.flatMap((st: any) => (Array.isArray(st.Action) ? st.Action : [st.Action])),
  );
}

/** A stand-in for a built layers/sharp, so the layer wiring is checked whatever the checkout holds. */
function fakeSharpLayer(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sharp-layer-'));
  mkdirSync(join(dir, 'nodejs', 'node_modules', 'sharp'), { recursive: true });
  writeFileSync(join(dir, 'nodejs', 'node_modules', 'sharp', 'package.json'), '{"name":"sharp"}');
  return dir;
}

beforeAll(async () => {
  // Every optional context value set (custom domain, push, mail, alarms, first admin): the nag test
  // synthesises the defaults.
  s = await synthesize({ layerDirs: { sharp: fakeSharpLayer() } }, { context: FULL_CONTEXT });
});

describe('bundles', () => {
  it('bundles every route and extra entry into its own folder', () => {
    for (const handler of [...routes.map((r) => handlerFile(r)), ...extraEntries]) {
      expect(existsSync(join(assetDir(handler), 'index.mjs')), handler).toBe(true);
    }
    const names = bundleSizes().map((b) => b.name);
    expect(names).toEqual(
      expect.arrayContaining(routes.map((r) => entryDir(handlerFile(r)).replace(/^functions\//, ''))),
    );
    expect(DIST_FUNCTIONS.endsWith(join('dist', 'functions'))).toBe(true);
  });

  it('ships the Swagger UI files with the docs asset function', () => {
    const dir = join(assetDir('functions/system/get-docs-asset.ts'), 'docs-assets');
    for (const f of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
  });
});

describe('stacks', () => {
  it('has a data stack, an API stack, one routes stack per area, a background stack and an edge stack', () => {
    const areas = [...routesByArea(routes).keys()];
    expect([...s.templates.keys()].sort()).toEqual(
      [
        `${prefix()}-Data`,
        `${prefix()}-Api`,
        ...areas.map(areaStackName),
        `${prefix()}-Background`,
        `${prefix()}-Edge`,
      ].sort(),
    );
  });

  it('passes CDK’s CloudFormation template validation (synthesis fails on any error)', () => {
    expect(s.templates.size).toBeGreaterThan(2);
  });

  it('keeps every stack under the CloudFormation resource limit', () => {
    for (const [name, template] of s.templates) {
      const n = Object.keys(template.toJSON().Resources).length;
      expect(n, name).toBeLessThan(MAX_RESOURCES_PER_STACK);
    }
    for (const stack of s.built.areas) {
      expect(resourceCount(stack)).toBe(Object.keys(s.templates.get(stack.stackName)!.toJSON().Resources).length);
    }
  });
});

describe('functions', () => {
  it('creates exactly one function per declared route, from that route’s bundle', () => {
    let total = 0;
    for (const template of s.templates.values())
      total += template.toJSON().Resources ? resourcesOf(template, 'AWS::Lambda::Function').length : 0;
    // Besides the routes: the background functions and the deploy hook. No other functions: no CDK
    // log-retention or custom-resource provider functions either.
    expect(total).toBe(routes.length + streamConsumers.length + schedules.length + 1);
    for (const r of routes) {
      const [, fn] = functionOf(r);
      expect(fn.Properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
      });
      const assetPath = String(fn.Metadata?.['aws:asset:path'] ?? '');
      expect(
        assetPath.replace(/\\/g, '/').endsWith(`dist/${entryDir(handlerFile(r))}`),
        `${r.name}: ${assetPath}`,
      ).toBe(true);
    }
  });

  it('sets the service environment on every function', () => {
    for (const r of routes) {
      const [, fn] = functionOf(r);
      const vars = fn.Properties!.Environment.Variables;
      for (const key of [
        'TABLE_NAME',
        'BUCKET_NAME',
        'SERVICE_VERSION',
        'COMPANY_TIMEZONE',
        'ALLOWED_ORIGINS',
        'CURSOR_SECRET',
        'GRIEVANCE_SECRET',
      ]) {
        expect(vars[key], `${r.name} ${key}`).toBeDefined();
      }
      expect(vars.SERVICE_VERSION).toBe(s.built.config.serviceVersion);
      // Secrets are dynamic references resolved by CloudFormation, never values in the template.
      expect(JSON.stringify(vars.CURSOR_SECRET)).toContain('{{resolve:secretsmanager:');
      expect(JSON.stringify(vars.GRIEVANCE_SECRET)).toContain('{{resolve:secretsmanager:');
    }
    const docs = routes.find((r) => r.name === 'get-docs-asset');
    if (docs)
      expect(functionOf(docs)[1].Properties!.Environment.Variables.DOCS_ASSETS_DIR).toBe('/var/task/docs-assets');
  });

  it('honours the route’s timeout and memory', () => {
    for (const r of routes.filter((x) => x.timeout || x.memory)) {
      const [, fn] = functionOf(r);
      if (r.timeout) expect(fn.Properties!.Timeout, r.name).toBe(r.timeout);
      if (r.memory) expect(fn.Properties!.MemorySize, r.name).toBe(r.memory);
    }
  });

  it('attaches the sharp layer exactly to the functions whose bundle imports sharp', () => {
    const data = s.templates.get(`${prefix()}-Data`)!;
    data.resourceCountIs('AWS::Lambda::LayerVersion', 1);
    data.hasResourceProperties('AWS::Lambda::LayerVersion', {
      CompatibleRuntimes: ['nodejs22.x'],
      CompatibleArchitectures: ['arm64'],
    });
    for (const r of routes) {
      const [, fn] = functionOf(r);
      const needsSharp = bundleExternals(handlerFile(r)).includes('sharp');
      expect((fn.Properties!.Layers ?? []).length, r.name).toBe(needsSharp ? 1 : 0);
    }
  });

  it('gives every function its own log group with a retention', () => {
    for (const r of routes) {
      const template = areaTemplate(r.area);
      const [, fn] = functionOf(r);
      const groupId = fn.Properties!.LoggingConfig.LogGroup.Ref as string;
      expect(template.toJSON().Resources[groupId].Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });
});

describe('least privilege', () => {
  it('grants table reads to every function and writes only where the route declares them', () => {
    for (const r of routes) {
      const [, fn] = functionOf(r);
      const actions = actionsOf(areaTemplate(r.area), fn);
      expect(actions, r.name).toEqual(expect.arrayContaining(TABLE_READ_ACTIONS));
      for (const write of TABLE_WRITE_ACTIONS) {
        expect(actions.includes(write), `${r.name} ${write}`).toBe(r.access?.table === 'write');
      }
      expect(
        actions.some((a) => a.startsWith('sns:')),
        `${r.name} sns`,
      ).toBe(!!r.access?.sns);
      expect(
        actions.some((a) => a.startsWith('ses:')),
        `${r.name} ses`,
      ).toBe(!!r.access?.ses);
      expect(
        actions.some((a) => a.startsWith('s3:')),
        `${r.name} s3`,
      ).toBe(!!r.access?.bucket?.length);
      expect(
        actions.some((a) => a.includes('*')),
        `${r.name} wildcard action`,
      ).toBe(false);
    }
  });

  it('has a route without table writes and no PutItem in its policy', () => {
    const reader = routes.find((r) => r.access?.table !== 'write')!;
    expect(reader).toBeDefined();
    const [, fn] = functionOf(reader);
    expect(actionsOf(areaTemplate(reader.area), fn)).not.toContain('dynamodb:PutItem');
  });

  it('attaches no AWS managed policy to any role', () => {
    for (const template of s.templates.values()) {
      for (const [id, role] of resourcesOf(template, 'AWS::IAM::Role')) {
        expect(role.Properties?.ManagedPolicyArns, id).toBeUndefined();
      }
    }
  });
});

describe('HTTP API', () => {
  it('is an HTTP API with an auto-deployed $default stage that writes access logs', () => {
    const api = s.templates.get(`${prefix()}-Api`)!;
    api.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });

  it('has one route per non-streaming route, with its route key and a 2.0 proxy integration', () => {
    let total = 0;
    for (const [area, areaRoutes] of routesByArea(routes)) {
      const template = areaTemplate(area);
      const keys = resourcesOf(template, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!.RouteKey);
      total += keys.length;
      expect(keys.sort()).toEqual(
        areaRoutes
          .filter((r) => !r.streaming)
          .map(expectedKey)
          .sort(),
      );
      for (const [, integration] of resourcesOf(template, 'AWS::ApiGatewayV2::Integration')) {
        expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      }
    }
    expect(total).toBe(routes.filter((r) => !r.streaming).length);
  });

  it('sends $default to the not-found function', () => {
    const notFound = routes.find((r) => r.path === '$default');
    expect(notFound?.method).toBe('ANY');
    const template = areaTemplate(notFound!.area);
    const [fnId] = functionOf(notFound!);
    const [[, route]] = resourcesOf(template, 'AWS::ApiGatewayV2::Route').filter(
      ([, r]) => r.Properties!.RouteKey === '$default',
    );
    const integrationId = route.Properties!.Target['Fn::Join'][1][1].Ref as string;
    const integration = template.toJSON().Resources[integrationId] as Resource;
    expect(integration.Properties!.IntegrationUri['Fn::GetAtt'][0]).toBe(fnId);
  });

  it('keeps streaming routes out of the API but still deploys their function', () => {
    for (const r of routes.filter((x) => x.streaming)) {
      functionOf(r);
      const keys = resourcesOf(areaTemplate(r.area), 'AWS::ApiGatewayV2::Route').map(([, x]) => x.Properties!.RouteKey);
      expect(keys).not.toContain(routeKey(r));
    }
  });

  it('lets the API invoke each routed function', () => {
    for (const [area, areaRoutes] of routesByArea(routes)) {
      const permissions = resourcesOf(areaTemplate(area), 'AWS::Lambda::Permission');
      expect(permissions.length).toBe(areaRoutes.filter((r) => !r.streaming).length);
      for (const [, p] of permissions) expect(p.Properties!.Principal).toBe('apigateway.amazonaws.com');
    }
  });
});

describe('data', () => {
  it('defines the single table from table-definition.ts', () => {
    const data = s.templates.get(`${prefix()}-Data`)!;
    data.resourceCountIs('AWS::DynamoDB::Table', 1);
    data.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const [[, table]] = resourcesOf(data, 'AWS::DynamoDB::Table');
    const gsis = table.Properties!.GlobalSecondaryIndexes as any[];
    expect(gsis.map((g) => g.IndexName).sort()).toEqual([...INDEXES].sort());
    const attrs = Object.fromEntries(
      (table.Properties!.AttributeDefinitions as any[]).map((a) => [a.AttributeName, a.AttributeType]),
    );
    expect(attrs).toMatchObject({ pk: 'S', sk: 'S' });
    for (const name of INDEXES) {
      const gsi = gsis.find((g) => g.IndexName === name);
      const keys = indexKeys(name);
      expect(gsi.Projection).toEqual({ ProjectionType: 'ALL' });
      expect(gsi.KeySchema).toEqual([
        { AttributeName: keys.pk, KeyType: 'HASH' },
        { AttributeName: keys.sk, KeyType: 'RANGE' },
      ]);
      expect(attrs[keys.pk]).toBe('S');
      expect(attrs[keys.sk]).toBe(sortKeyType(name));
    }
  });

  it('keeps the media bucket private, encrypted and TLS-only, with CORS for uploads', () => {
    const data = s.templates.get(`${prefix()}-Data`)!;
    data.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
    data.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedMethods: ['PUT'], AllowedOrigins: s.built.config.allowedOrigins })],
      },
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('generates the two application secrets and keeps them', () => {
    const data = s.templates.get(`${prefix()}-Data`)!;
    data.resourceCountIs('AWS::SecretsManager::Secret', 2);
    data.allResources('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
  });
});
