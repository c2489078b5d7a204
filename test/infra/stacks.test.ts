import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assetDir,
  bundleExternals,
  bundleSecrets,
  bundleSettings,
  bundleSizes,
  DIST_FUNCTIONS,
  entryDir,
  extraEntries,
} from '../../infra/build/bundle.ts';
import { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS } from '../../infra/constructs/route-function.ts';
import { pascal } from '../../infra/stacks/area-routes-stack.ts';
import { DEPLOY_HOOK_HANDLER, ITERATOR_AGE_ALARM_MS } from '../../infra/stacks/background-stack.ts';
import { isGrievanceFunction } from '../../infra/stacks/config.ts';
import { EDGE_METRICS_REGION } from '../../infra/stacks/edge-alarms-stack.ts';
import { MAX_RESOURCES_PER_STACK, resourceCount, routesByArea } from '../../infra/stacks/workplace-app.ts';
import { routeFunctionAccess, writableKeys } from '../../shared/api/access-policy.ts';
import { schedules, streamConsumers } from '../../shared/api/background.ts';
import { type AnyRoute, handlerFile, routeKey, routeMethods } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { SECRET_NAMES, SECRETS, type SecretName, secretArnVariable } from '../../shared/config/secrets.ts';
import { INDEXES, indexKeys, sortKeyType, TTL_ATTRIBUTE } from '../../shared/db/table-definition.ts';
import { FULL_CONTEXT, type Resource, resourcesOf, SYNTH_TIMEOUT, type Synthesized, synthesize } from './synth.ts';

let s: Synthesized;
const prefix = () => s.built.config.prefix;
const areaStackName = (area: string) => `${prefix()}-Routes-${pascal(area)}`;
const areaTemplate = (area: string): Template => s.templates.get(areaStackName(area))!;
/** The route keys of a route: one per method it answers (a cacheable GET answers HEAD too). */
const expectedKeys = (r: AnyRoute) =>
  r.path === '$default' ? ['$default'] : routeMethods(r).map((method) => routeKey({ method, path: r.path }));

/** The function of a route in its area's template: by its description, then by its asset. */
function functionOf(r: AnyRoute): [string, Resource] {
  const matches = resourcesOf(areaTemplate(r.area), 'AWS::Lambda::Function').filter(([, f]) =>
    String(f.Properties?.Description ?? '').startsWith(`${expectedKeys(r)[0]}:`),
  );
  expect(matches, `function of ${r.area}/${r.name}`).toHaveLength(1);
  return matches[0];
}

/** Every IAM action the function's role is allowed (inline policies and attached policies). */
function statementsOf(template: Template, fn: Resource): any[] {
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  const role = template.toJSON().Resources[roleId] as Resource;
  const docs = [
    ...(role.Properties?.Policies ?? []).map((p: any) => p.PolicyDocument),
    ...resourcesOf(template, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties?.Roles ?? []).includes(`"${roleId}"`))
      .map(([, p]) => p.Properties!.PolicyDocument),
  ];
  return docs.flatMap((d: any) => d.Statement);
}

const actionsIn = (statements: any[]): string[] =>
  statements.flatMap((st: any) => (Array.isArray(st.Action) ? st.Action : [st.Action]));

function actionsOf(template: Template, fn: Resource): string[] {
  return actionsIn(statementsOf(template, fn));
}

beforeAll(async () => {
  // Every optional context value set (custom domain, push, mail, alarms, first admin): the nag test
  // synthesises the defaults.
  s = await synthesize({}, { context: FULL_CONTEXT });
}, SYNTH_TIMEOUT);

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

  it('ships the source maps but no function loads them (workplace:sourceMaps unset)', () => {
    expect(bundleSizes().every((b) => b.mapBytes > 0)).toBe(true);
    for (const template of s.templates.values()) {
      for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
        expect(fn.Properties?.Environment?.Variables?.NODE_OPTIONS, id).toBeUndefined();
      }
    }
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
        // CloudFront's metrics are in us-east-1 only; the test app is in eu-west-1.
        `${prefix()}-EdgeAlarms`,
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
      for (const key of ['TABLE_NAME', 'BUCKET_NAME', 'SERVICE_VERSION', 'COMPANY_TIMEZONE', 'ALLOWED_ORIGINS']) {
        expect(vars[key], `${r.name} ${key}`).toBeDefined();
      }
      expect(vars.SERVICE_VERSION).toBe(s.built.config.serviceVersion);
    }
    const docs = routes.find((r) => r.name === 'get-docs-asset');
    if (docs)
      expect(functionOf(docs)[1].Properties!.Environment.Variables.DOCS_ASSETS_DIR).toBe('/var/task/docs-assets');
    // The PDF's font beside the one function that writes PDFs, and no other.
    for (const r of routes) {
      const dir = functionOf(r)[1].Properties!.Environment.Variables.PDF_FONT_DIR;
      expect(dir, r.name).toBe(r.name === 'admin-export-grievance' ? '/var/task/pdf-font' : undefined);
    }
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

  it('traces every function of the service with X-Ray (active tracing)', () => {
    for (const template of s.templates.values()) {
      for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
        // CDK's own helper functions (log retention, custom resource providers) are not the service's.
        if (!fn.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME) continue;
        expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      }
    }
  });
});

describe('least privilege', () => {
  it('grants table reads to every function and writes only where the route declares them', () => {
    for (const r of routes) {
      const [, fn] = functionOf(r);
      const statements = statementsOf(areaTemplate(r.area), fn);
      const actions = actionsIn(statements);
      expect(actions, r.name).toEqual(expect.arrayContaining(TABLE_READ_ACTIONS));
      // Writes on any item only where declared without `writes`; with it, on the declared partitions
      // only; a read-only session route may update session items only.
      const unconditioned = actionsIn(statements.filter((st) => !st.Condition));
      const narrowed = writableKeys(routeFunctionAccess(r));
      for (const write of TABLE_WRITE_ACTIONS) {
        expect(unconditioned.includes(write), `${r.name} ${write}`).toBe(r.access?.table === 'write' && !narrowed);
      }
      const granted = statements.find((st) => st.Sid === 'TableWrite');
      expect(granted?.Condition, `${r.name} narrowed writes`).toEqual(
        narrowed ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': narrowed } } : undefined,
      );
      const refresh = statements.find((st) => st.Sid === 'SessionRefresh');
      expect(!!refresh, `${r.name} session refresh`).toBe(
        r.access?.table !== 'write' && r.auth !== 'public' && !r.anonymous,
      );
      if (refresh) {
        expect(refresh.Action).toBe('dynamodb:UpdateItem');
        expect(refresh.Condition).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] },
        });
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
          .flatMap(expectedKeys)
          .sort(),
      );
      for (const [, integration] of resourcesOf(template, 'AWS::ApiGatewayV2::Integration')) {
        expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      }
    }
    expect(total).toBe(routes.filter((r) => !r.streaming).flatMap(expectedKeys).length);
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
      // One permission per route key: a cacheable GET's HEAD route invokes the same function.
      expect(permissions.length).toBe(areaRoutes.filter((r) => !r.streaming).flatMap(expectedKeys).length);
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

  it('keeps the media bucket private, encrypted and TLS-only, with CORS for uploads and public media reads', () => {
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
        CorsRules: [
          Match.objectLike({ AllowedMethods: ['PUT'], AllowedOrigins: s.built.config.allowedOrigins }),
          // Signed media GETs are readable by any origin's scripts (the website); never with credentials.
          Match.objectLike({ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: ['*'] }),
        ],
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

  it('generates the seven application secrets, the placeholder of the SSO client secret (and the first admin password) and keeps them', () => {
    const data = s.templates.get(`${prefix()}-Data`)!;
    data.resourceCountIs('AWS::SecretsManager::Secret', 9);
    data.allResources('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
  });
});

// ------------------------------------------------------------------ background functions

const background = () => s.templates.get(`${prefix()}-Background`)!;
const edge = () => s.templates.get(`${prefix()}-Edge`)!;

/** A background function by its description (`Stream consumer <name>`, `Schedule <name>`). */
function backgroundFunction(description: string): [string, Resource] {
  const matches = resourcesOf(background(), 'AWS::Lambda::Function').filter(
    ([, f]) => f.Properties?.Description === description,
  );
  expect(matches, description).toHaveLength(1);
  return matches[0];
}

describe('stream consumers', () => {
  it('maps the table stream to each consumer with its filter patterns as filter criteria', () => {
    const mappings = resourcesOf(background(), 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(streamConsumers.length);
    for (const consumer of streamConsumers) {
      const [fnId, fn] = backgroundFunction(`Stream consumer ${consumer.name}`);
      const [[, mapping]] = mappings.filter(([, m]) => m.Properties!.FunctionName.Ref === fnId);
      expect(mapping.Properties).toMatchObject({
        EventSourceArn: { Ref: expect.any(String) },
        StartingPosition: 'LATEST',
        BatchSize: consumer.batchSize ?? 100,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: expect.any(Number),
      });
      expect(mapping.Properties!.MaximumRetryAttempts).toBeGreaterThan(0);
      // The stream ARN is the data stack's SSM parameter, resolved at deployment (no export).
      const parameter = background().toJSON().Parameters[mapping.Properties!.EventSourceArn.Ref];
      expect(parameter).toMatchObject({
        Type: 'AWS::SSM::Parameter::Value<String>',
        Default: `/${prefix()}/table-stream-arn`,
      });
      // Exactly background.ts's patterns, each JSON-encoded (Lambda's FilterCriteria format).
      const patterns = mapping.Properties!.FilterCriteria.Filters.map((f: { Pattern: string }) =>
        JSON.parse(f.Pattern),
      );
      expect(patterns).toEqual(consumer.filters);
      // Batches that fail every retry leave their position in an SQS queue.
      const dlqId = mapping.Properties!.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0] as string;
      expect(background().toJSON().Resources[dlqId].Type).toBe('AWS::SQS::Queue');
      const actions = actionsOf(background(), fn);
      expect(actions).toEqual(
        expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'sqs:SendMessage']),
      );
    }
  });

  it('gives company-wide fan-outs a function and mapping of their own, apart from personal notices (issue 38)', () => {
    const patternsOf = (name: string) => {
      const [fnId, fn] = backgroundFunction(`Stream consumer ${name}`);
      const [[, mapping]] = resourcesOf(background(), 'AWS::Lambda::EventSourceMapping').filter(
        ([, m]) => m.Properties!.FunctionName.Ref === fnId,
      );
      const patterns = mapping.Properties!.FilterCriteria.Filters.map((f: { Pattern: string }) =>
        JSON.parse(f.Pattern),
      );
      return { fn, patterns: JSON.stringify(patterns) };
    };
    const company = patternsOf('company-fan-out');
    const personal = patternsOf('feed-fan-out');
    // Announcements to everybody and the day's birthdays reach the company fan-out only …
    for (const entity of ['"isAnnouncement"', '"BirthdayAnnouncement"', '"BirthdayDay"']) {
      expect(company.patterns).toContain(entity);
      expect(personal.patterns).not.toContain(entity);
    }
    // … and reply notices the personal consumer only.
    expect(personal.patterns).toContain('"ReplyNotice"');
    expect(company.patterns).not.toContain('"ReplyNotice"');
    // A pass over a large company resumes from its recorded page when it runs past the timeout.
    expect(company.fn.Properties!.Timeout).toBe(900);
    expect(resourcesOf(background(), 'AWS::Lambda::Function').map(([, f]) => f.Properties?.Description)).not.toContain(
      'Stream consumer birthday-fan-out',
    );
  });

  it('grants each background function what background.ts declares, and stream reads only to consumers', () => {
    const all = [
      ...streamConsumers.map((c) => ({ ...c, description: `Stream consumer ${c.name}`, consumer: true })),
      ...schedules.map((x) => ({ ...x, description: `Schedule ${x.name}`, consumer: false })),
    ];
    for (const b of all) {
      const [, fn] = backgroundFunction(b.description);
      const access = b.access ?? { table: 'write' };
      const actions = actionsOf(background(), fn);
      expect(actions.includes('dynamodb:PutItem'), b.name).toBe(access.table === 'write');
      expect(
        actions.some((a) => a.startsWith('sns:')),
        `${b.name} sns`,
      ).toBe(!!access.sns);
      expect(
        actions.some((a) => a.startsWith('s3:')),
        `${b.name} s3`,
      ).toBe(!!access.bucket?.length);
      expect(actions.includes('dynamodb:GetRecords'), `${b.name} stream`).toBe(b.consumer);
      if (b.timeout) expect(fn.Properties!.Timeout).toBe(b.timeout);
      if (b.memory) expect(fn.Properties!.MemorySize).toBe(b.memory);
    }
  });
});

describe('schedules', () => {
  it('invokes each schedule function on its rate, or daily in the company timezone', () => {
    const targets = resourcesOf(background(), 'AWS::Scheduler::Schedule');
    expect(targets).toHaveLength(schedules.length);
    expect(s.built.config.companyTimezone).toBe('Europe/Berlin');
    for (const schedule of schedules) {
      const [fnId] = backgroundFunction(`Schedule ${schedule.name}`);
      const [[, target]] = targets.filter(([, t]) => t.Properties!.Target.Arn['Fn::GetAtt'][0] === fnId);
      if (schedule.everySeconds) {
        const minutes = schedule.everySeconds / 60;
        expect(target.Properties!.ScheduleExpression).toBe(`rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`);
      } else {
        const [hour, minute] = schedule.dailyAt!.split(':').map(Number);
        expect(target.Properties!.ScheduleExpression).toBe(`cron(${minute} ${hour} * * ? *)`);
        expect(target.Properties!.ScheduleExpressionTimezone).toBe('Europe/Berlin');
      }
      expect(target.Properties!.FlexibleTimeWindow).toEqual({ Mode: 'OFF' });
      expect(JSON.parse(target.Properties!.Target.Input)).toMatchObject({ 'detail-type': 'Scheduled Event' });
    }
    expect(schedules.some((x) => x.everySeconds) && schedules.some((x) => x.dailyAt)).toBe(true);
  });
});

describe('deploy hook', () => {
  it('runs on every deploy with the first admin from context and a generated password', () => {
    const [fnId, fn] = resourcesOf(background(), 'AWS::Lambda::Function').find(([, f]) =>
      String(f.Properties?.Description).startsWith('Deploy hook'),
    )!;
    const [[, hook]] = resourcesOf(background(), 'Custom::DeployHook');
    expect(hook.Properties!.ServiceToken).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    expect(hook.Properties!.deployedAt).toEqual(expect.any(String));
    const vars = fn.Properties!.Environment.Variables;
    expect(vars.ADMIN_EMAIL).toBe(FULL_CONTEXT['workplace:adminEmail']);
    // The password stays in Secrets Manager: the hook gets its name and may read that one secret.
    expect(vars.ADMIN_PASSWORD).toBeUndefined();
    expect(vars.ADMIN_PASSWORD_SECRET_ARN).toBe(`${prefix()}/admin-password`);
    const role = background().toJSON().Resources[fn.Properties!.Role['Fn::GetAtt'][0]] as Resource;
    const read = role
      .Properties!.Policies.flatMap((p: any) => p.PolicyDocument.Statement)
      .find((st: any) => st.Sid === 'AdminPassword');
    expect(read.Action).toBe('secretsmanager:GetSecretValue');
    expect(JSON.stringify(read.Resource)).toContain(`:secret:${prefix()}/admin-password-??????`);
    // It runs after every route stack is deployed.
    const deps = s.built.background.dependencies.map((d) => d.stackName);
    for (const area of s.built.areas) expect(deps).toContain(area.stackName);
  });
});

// ------------------------------------------------------------------ one base address

describe('edge', () => {
  const distribution = () => resourcesOf(edge(), 'AWS::CloudFront::Distribution')[0][1].Properties!.DistributionConfig;
  const streamingRoutes = routes.filter((r) => r.streaming);

  it('sends everything to the HTTP API, uncached, with every viewer header but Host', () => {
    const config = distribution();
    const apiOrigin = config.Origins.find((o: any) => o.Id === config.DefaultCacheBehavior.TargetOriginId);
    expect(JSON.stringify(apiOrigin.DomainName)).toContain('.execute-api.');
    expect(config.DefaultCacheBehavior).toMatchObject({
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
      ViewerProtocolPolicy: 'https-only',
    });
  });

  it('sends each streaming route to its Function URL through origin access control and the header-copying function', () => {
    expect(streamingRoutes.length).toBeGreaterThan(0);
    const config = distribution();
    // Each streaming route, and the public website routes (media.test.ts asserts that behaviour).
    expect(config.CacheBehaviors).toHaveLength(streamingRoutes.length + 1);
    const [[fnFunctionId, cfFunction]] = resourcesOf(edge(), 'AWS::CloudFront::Function');
    expect(cfFunction.Properties!.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    const [[oacId, oac]] = resourcesOf(edge(), 'AWS::CloudFront::OriginAccessControl');
    expect(oac.Properties!.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 'lambda',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    for (const r of streamingRoutes) {
      const behaviour = config.CacheBehaviors.find((b: any) => b.PathPattern === r.path);
      expect(behaviour, r.path).toBeDefined();
      expect(behaviour.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
      expect(behaviour.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnFunctionId, 'FunctionARN'] } },
      ]);
      const origin = config.Origins.find((o: any) => o.Id === behaviour.TargetOriginId);
      expect(origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
      expect(origin.CustomOriginConfig.OriginReadTimeout).toBeGreaterThan(25); // the stream pings every 25 s
      // The Function URL of the route's function: response streaming, IAM auth (only CloudFront may call it).
      const [fnId] = functionOf(r);
      const urls = resourcesOf(areaTemplate(r.area), 'AWS::Lambda::Url');
      const [[, url]] = urls.filter(([, u]) => u.Properties!.TargetFunctionArn['Fn::GetAtt'][0] === fnId);
      expect(url.Properties).toMatchObject({ AuthType: 'AWS_IAM', InvokeMode: 'RESPONSE_STREAM' });
    }
    // CloudFront may invoke the URL (and, since 2025, the function through it), from this distribution only.
    const permissions = resourcesOf(edge(), 'AWS::Lambda::Permission').map(([, p]) => p.Properties!);
    expect(permissions.map((p) => p.Action).sort()).toEqual(
      streamingRoutes.flatMap(() => ['lambda:InvokeFunction', 'lambda:InvokeFunctionUrl']).sort(),
    );
    for (const p of permissions) {
      expect(p.Principal).toBe('cloudfront.amazonaws.com');
      expect(JSON.stringify(p.SourceArn)).toContain(':distribution/');
    }
  });

  it('serves the custom domain from context and outputs the base URL', () => {
    const config = distribution();
    expect(config.Aliases).toEqual([FULL_CONTEXT['workplace:domainName']]);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: FULL_CONTEXT['workplace:certificateArn'],
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    const outputs = edge().toJSON().Outputs;
    expect(outputs.BaseUrl.Value).toBe(`https://${FULL_CONTEXT['workplace:domainName']}`);
  });
});

// ------------------------------------------------------------------ push, mail, observability

describe('push and mail', () => {
  it('passes the platform applications to the functions that push, and lets only them create endpoints there', () => {
    const apnsRef = `{{resolve:ssm:${FULL_CONTEXT['workplace:apnsPlatformApplicationParameter']}}}`;
    for (const r of routes) {
      const [, fn] = functionOf(r);
      const vars = fn.Properties!.Environment.Variables;
      if (r.access?.sns) {
        expect(vars.PUSH_FCM_APPLICATION_ARN, r.name).toBe(FULL_CONTEXT['workplace:fcmPlatformApplicationArn']);
        expect(vars.PUSH_APNS_APPLICATION_ARN, r.name).toBe(apnsRef);
        const role = areaTemplate(r.area).toJSON().Resources[fn.Properties!.Role['Fn::GetAtt'][0]] as Resource;
        const statements = role.Properties!.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
        const endpoints = statements.find((st: any) => st.Sid === 'PushEndpoints');
        expect(endpoints.Resource).toEqual([FULL_CONTEXT['workplace:fcmPlatformApplicationArn'], apnsRef]);
      } else {
        expect(vars.PUSH_FCM_APPLICATION_ARN, r.name).toBeUndefined();
      }
    }
    expect(routes.some((r) => r.access?.sns)).toBe(true);
  });

  it('passes the grievance deadlines to the grievance functions only (retention stays off unless set)', () => {
    for (const r of routes) {
      const vars = functionOf(r)[1].Properties!.Environment.Variables;
      const grievances = r.area === 'grievances';
      expect(vars.GRIEVANCE_ACK_DAYS, r.name).toBe(grievances ? '7' : undefined);
      expect(vars.GRIEVANCE_FEEDBACK_DAYS, r.name).toBe(grievances ? '90' : undefined);
      expect(vars.GRIEVANCE_RETENTION_DAYS, r.name).toBeUndefined();
    }
  });

  it("passes the audit log's retention to every route function", () => {
    for (const r of routes) {
      expect(functionOf(r)[1].Properties!.Environment.Variables.AUDIT_RETENTION_DAYS, r.name).toBe('730');
    }
  });

  it("passes the reporters' threshold to the content-report functions only", () => {
    for (const r of routes) {
      const vars = functionOf(r)[1].Properties!.Environment.Variables;
      expect(vars.REPORT_HIDE_THRESHOLD, r.name).toBe(r.area === 'moderation' ? '5' : undefined);
    }
    expect(routes.filter((r) => r.area === 'moderation')).toHaveLength(4);
  });

  it('creates the SES identity of workplace:mailFrom and gives MAIL_FROM to the functions that send mail', () => {
    s.templates.get(`${prefix()}-Data`)!.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'no-reply@workplace.example.org',
    });
    for (const r of routes) {
      const [, fn] = functionOf(r);
      const vars = fn.Properties!.Environment.Variables;
      expect(vars.MAIL_FROM, r.name).toBe(r.access?.ses ? FULL_CONTEXT['workplace:mailFrom'] : undefined);
      if (r.access?.ses) {
        // The sender's identities only: no wildcard.
        const role = areaTemplate(r.area).toJSON().Resources[fn.Properties!.Role['Fn::GetAtt'][0]] as Resource;
        const email = role
          .Properties!.Policies.flatMap((p: any) => p.PolicyDocument.Statement)
          .find((st: any) => st.Sid === 'Email');
        expect(JSON.stringify(email.Resource)).toContain('identity/no-reply@workplace.example.org');
        expect(JSON.stringify(email.Resource)).not.toContain('*');
      }
    }
  });
});

describe('observability', () => {
  const allFunctions = () =>
    [...s.templates.values()].flatMap((t) =>
      resourcesOf(t, 'AWS::Lambda::Function').map(([id, fn]) => ({ t, id, fn })),
    );

  it('sets the Powertools service name and metrics namespace on every function', () => {
    for (const { id, fn } of allFunctions()) {
      expect(fn.Properties!.Environment.Variables, id).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'workplace',
        POWERTOOLS_METRICS_NAMESPACE: 'Workplace',
      });
    }
  });

  it('alarms on failed stream batches and on API 5xx; e-mails the alarm topic', () => {
    const queueAlarms = resourcesOf(background(), 'AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties!.Namespace === 'AWS/SQS',
    );
    // Each consumer's failed batches, and the failed schedule runs.
    expect(queueAlarms).toHaveLength(streamConsumers.length + 1);
    // The API's own 5xx count is one of the server errors alarm's metrics (test/infra/operations.test.ts).
    expect(JSON.stringify(s.templates.get(`${prefix()}-Api`)!.toJSON())).toContain('"MetricName":"5xx"');
    const data = s.templates.get(`${prefix()}-Data`)!;
    data.resourceCountIs('AWS::SNS::Topic', 1);
    data.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.org' });
  });
});

// ------------------------------------------------------------------ production fidelity

describe('the stream cannot starve the API', () => {
  it('reserves concurrency for each streaming function, from context with a default, and for no other', () => {
    const streaming = routes.filter((r) => r.streaming);
    expect(streaming.length).toBeGreaterThan(0);
    expect(s.built.config.streamReservedConcurrency).toBe(400);
    for (const r of routes) {
      const [, fn] = functionOf(r);
      expect(fn.Properties!.ReservedConcurrentExecutions, r.name).toBe(r.streaming ? 400 : undefined);
    }
  });

  it('throttles the HTTP API stage', () => {
    s.templates.get(`${prefix()}-Api`)!.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 },
    });
  });
});

const everyFunction = () =>
  [...s.templates.values()].flatMap((t) => resourcesOf(t, 'AWS::Lambda::Function').map(([, fn]) => ({ t, fn })));
/** The bundle a function deploys (asset metadata: dist/<handler module>). */
const handlerOf = (fn: Resource) => {
  const path = String(fn.Metadata?.['aws:asset:path']).replace(/\\/g, '/');
  return `${path.slice(path.indexOf('/dist/') + 6)}.ts`;
};

describe('settings a rule depends on, in the deployed environment', () => {
  it('gives the break-glass address to every function that enforces it, and to no other', () => {
    const enforcing: string[] = [];
    for (const { fn } of everyFunction()) {
      const handler = handlerOf(fn);
      const address = fn.Properties!.Environment.Variables.SSO_BREAK_GLASS_EMAIL;
      if (bundleSettings(handler).includes('breakGlass')) {
        expect(address, handler).toBe(FULL_CONTEXT['workplace:adminEmail']);
        enforcing.push(handler);
      } else expect(address, handler).toBeUndefined();
    }
    // The rule's functions, named: password sign-in, and every SCIM write of a User (with or without
    // single sign-on configured: this context has none).
    expect(enforcing).toEqual(
      expect.arrayContaining([
        'functions/auth/sign-in-email.ts',
        'functions/scim/create-scim-user.ts',
        'functions/scim/replace-scim-user.ts',
        'functions/scim/patch-scim-user.ts',
        'functions/scim/delete-scim-user.ts',
      ]),
    );
    expect(enforcing).not.toContain('functions/system/get-health.ts');
  });
});

describe('secrets out of function configuration', () => {
  it('puts no secret value, nor a reference CloudFormation would resolve into one, in any function', () => {
    const all = everyFunction();
    expect(all.length).toBeGreaterThan(routes.length);
    for (const { fn } of all) {
      const vars = JSON.stringify(fn.Properties!.Environment.Variables);
      expect(vars).not.toContain('resolve:secretsmanager');
      for (const name of SECRET_NAMES)
        expect(fn.Properties!.Environment.Variables[SECRETS[name].variable]).toBeUndefined();
    }
  });

  it('gives each secret (its ARN and GetSecretValue on it) exactly to the functions whose bundle reads it', () => {
    const nameOf = {
      cursor: 'cursor-secret',
      grievance: 'grievance-secret',
      survey: 'survey-secret',
      notification: 'notification-secret',
      idempotency: 'idempotency-secret',
      avatar: 'avatar-secret',
      scim: 'scim-token',
      oidcClient: 'oidc-client-secret',
    } as const;
    for (const { t, fn } of everyFunction()) {
      const handler = handlerOf(fn);
      const reads = bundleSecrets(handler);
      const vars = fn.Properties!.Environment.Variables;
      const grant = statementsOf(t, fn).find((st) => st.Sid === 'Secrets');
      for (const name of SECRET_NAMES) {
        const arn = vars[secretArnVariable(name)];
        if (reads.includes(name)) {
          expect(arn, `${handler} ${name}`).toBe(`${prefix()}/${nameOf[name]}`);
          expect(grant.Action, handler).toBe('secretsmanager:GetSecretValue');
          expect(JSON.stringify(grant.Resource)).toContain(`:secret:${prefix()}/${nameOf[name]}-??????`);
        } else {
          expect(arn, `${handler} ${name}`).toBeUndefined();
          expect(JSON.stringify(grant?.Resource ?? ''), handler).not.toContain(nameOf[name]);
        }
      }
    }
  });

  it('grants the grievance secret to grievance functions only (routes, notice delivery, reminders, retention, grievance migrations), and nothing to health', () => {
    // Read from the synthesised template: the functions whose configuration names the grievance
    // secret and whose role may read it.
    const granted = (name: SecretName) =>
      everyFunction()
        .filter(({ fn }) => fn.Properties!.Environment.Variables[secretArnVariable(name)] !== undefined)
        .map(({ t, fn }) => {
          const grant = statementsOf(t, fn).find((st) => st.Sid === 'Secrets');
          expect(JSON.stringify(grant?.Resource ?? '')).toContain(`${name}-secret`);
          return handlerOf(fn);
        })
        .sort();
    const grievanceRoutes = routes
      .filter((r) => r.area === 'grievances')
      // The deadlines list and the statistics read index entries and counters only: they open no seal.
      .filter((r) => !['admin-list-grievance-deadlines', 'admin-get-grievance-stats'].includes(r.name))
      .map(handlerFile);
    expect(granted('grievance')).toEqual(
      [
        ...grievanceRoutes,
        'functions/schedules/deliver-grievance-notices.ts',
        'functions/schedules/send-grievance-reminders.ts',
        'functions/schedules/erase-expired-grievances.ts',
        // It unseals reader references and the notification previews of earlier releases; the general
        // migrations function does not (shared/registry/migration-order.ts).
        'functions/schedules/run-grievance-migrations.ts',
      ].sort(),
    );
    // Idempotency records are keyed under a key of their own: every creating route, upload-post-file
    // (which parses hostile files) among them, holds that one and not the grievance key.
    const creating = routes.filter((r) => r.idempotent).map(handlerFile);
    expect(creating).toContain('functions/files/upload-post-file.ts');
    for (const h of creating) expect(granted('idempotency')).toContain(h);
    // Notifications are sealed under the notification key: the list and the change feed open them
    // (the feed decides after opening which ones it may publish) without the grievance key.
    for (const h of ['functions/notifications/list-notifications.ts', 'functions/stream/change-feed.ts']) {
      expect(granted('notification')).toContain(h);
      expect(granted('grievance')).not.toContain(h);
    }
    expect(bundleSecrets('functions/system/get-health.ts')).toEqual([]);
    // Paged lists seal cursors; the change feed reads the event log in bounded queries without one
    // (shared/db/paging.ts keeps the cursor code to what pages); the deploy hook reads no application secret.
    expect(granted('cursor').length).toBeGreaterThan(0);
    expect(bundleSecrets(DEPLOY_HOOK_HANDLER)).toEqual([]);
    expect(bundleSecrets('functions/stream/change-feed.ts').sort()).toEqual(['notification']);
    // Avatar keys are tagged under a key of their own: the functions that give, check, move or erase
    // avatars hold it; serving an avatar needs none.
    for (const h of [
      'functions/profiles/upload-my-avatar.ts',
      'functions/profiles/upload-person-avatar.ts',
      'functions/schedules/run-migrations.ts',
    ])
      expect(granted('avatar')).toContain(h);
    expect(granted('avatar')).not.toContain('functions/files/get-avatar-file.ts');
    // No function holds both: the migrations that need each run in different functions.
    expect(granted('avatar').filter((h) => granted('grievance').includes(h))).toEqual([]);
  });
});

describe('the grievance secret stays in the grievance area', () => {
  /** Every role of the app, by its description (`Runs <handler>`), with every statement it is allowed. */
  const everyRole = () =>
    [...s.templates.values()].flatMap((t) => {
      const policies = resourcesOf(t, 'AWS::IAM::Policy');
      return resourcesOf(t, 'AWS::IAM::Role').map(([id, role]) => ({
        description: String(role.Properties?.Description ?? id),
        statements: [
          ...(role.Properties?.Policies ?? []).map((p: any) => p.PolicyDocument),
          ...policies
            .filter(([, p]) => JSON.stringify(p.Properties?.Roles ?? []).includes(`"${id}"`))
            .map(([, p]) => p.Properties!.PolicyDocument),
        ].flatMap((d: any) => d.Statement),
      }));
    });
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
  /** A statement that lets its role read the grievance secret: by its name, or on any resource. */
  const readsGrievanceSecret = (st: any) =>
    st.Effect === 'Allow' &&
    list(st.Action).some((a) => ['secretsmanager:GetSecretValue', 'secretsmanager:*', '*'].includes(String(a))) &&
    list(st.Resource).some((r) => r === '*' || JSON.stringify(r).includes(`/grievance-secret`));

  it('lets no role outside the grievance area read the grievance secret', () => {
    const readers = everyRole()
      .filter((r) => r.statements.some(readsGrievanceSecret))
      .map((r) => r.description);
    // The grievance routes and sweeps, its migrations among them (functions/schedules/*grievance*).
    expect(readers.length).toBeGreaterThan(10);
    expect(readers.filter((d) => !(d.startsWith('Runs ') && isGrievanceFunction(d.slice('Runs '.length))))).toEqual([]);
    expect(readers).toContain('Runs functions/schedules/run-grievance-migrations.ts');
    expect(readers).not.toContain('Runs functions/schedules/run-migrations.ts');
  });
});

describe('alarms that mean something', () => {
  const alarms = () =>
    [...s.templates.entries()].flatMap(([stack, t]) =>
      resourcesOf(t, 'AWS::CloudWatch::Alarm').map(([id, a]) => ({ stack, id, props: a.Properties! })),
    );
  const find = (metricName: string) => alarms().filter((a) => a.props.MetricName === metricName);

  it('has a few alarms, each notifying the operators and saying what it means', () => {
    const all = alarms();
    // Server errors, 3 per streaming route (errors, throttles, open streams near the reservation), 7 shared (concurrency, table throttles, background
    // failures, mail failures, bounces, complaints, failed data-rights jobs), 2 per stream consumer,
    // failed schedule runs, CloudFront 5xx.
    const streaming = routes.filter((r) => r.streaming).length;
    expect(all).toHaveLength(1 + 3 * streaming + 7 + 2 * streamConsumers.length + 1 + 1);
    for (const a of all) {
      expect(a.props.AlarmActions, a.id).toHaveLength(1);
      expect(String(a.props.AlarmDescription).length, a.id).toBeGreaterThan(40);
    }
    // No per-function Errors alarm behind the HTTP API (its 5xx alarm covers the routes).
    expect(find('Errors')).toHaveLength(streaming);
  });

  it('watches the stream consumers’ iterator age', () => {
    const ages = find('IteratorAge');
    expect(ages).toHaveLength(streamConsumers.length);
    for (const a of ages) expect(a.props).toMatchObject({ Statistic: 'Maximum', Threshold: ITERATOR_AGE_ALARM_MS });
  });

  it('watches the unreserved executions near the end of the pool the routes share', () => {
    const [concurrency] = find('UnreservedConcurrentExecutions');
    // 80 % of the 1,000 quota less the stream's 400.
    expect(concurrency.props).toMatchObject({ Namespace: 'AWS/Lambda', Threshold: 480, Statistic: 'Maximum' });
    expect(concurrency.props.Dimensions).toBeUndefined(); // the account, not one function
  });

  it('watches the table’s throttled requests', () => {
    const [throttles] = alarms().filter((a) => JSON.stringify(a.props.Metrics ?? []).includes('ThrottledRequests'));
    expect(throttles.stack).toBe(`${prefix()}-Data`);
    // One metric per operation the service calls, summed (at most 10 metrics in an alarm).
    const metrics = throttles.props.Metrics as any[];
    const operations = metrics
      .filter((m) => m.MetricStat)
      .map((m) => m.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'Operation').Value);
    expect(operations).toEqual(expect.arrayContaining(['GetItem', 'Query', 'PutItem', 'TransactWriteItems']));
    expect(operations.length).toBeLessThanOrEqual(10);
  });

  it('sends failed schedule runs to a dead-letter queue and alarms on it', () => {
    const t = background();
    const [[queueId]] = resourcesOf(t, 'AWS::SQS::Queue').filter(([id]) => id.startsWith('ScheduleFailures'));
    const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
    for (const schedule of schedules) {
      const [fnId, fn] = backgroundFunction(`Schedule ${schedule.name}`);
      // Not delivered by the scheduler ...
      const [[, target]] = resourcesOf(t, 'AWS::Scheduler::Schedule').filter(
        ([, x]) => x.Properties!.Target.Arn['Fn::GetAtt'][0] === fnId,
      );
      expect(target.Properties!.Target.DeadLetterConfig).toEqual({ Arn: queueArn });
      // ... or failing every retry of the function's asynchronous invocation.
      const [[, invoke]] = resourcesOf(t, 'AWS::Lambda::EventInvokeConfig').filter(
        ([, x]) => x.Properties!.FunctionName.Ref === fnId,
      );
      expect(invoke.Properties!.DestinationConfig).toEqual({ OnFailure: { Destination: queueArn } });
      const send = statementsOf(t, fn).find((st) => st.Sid === 'FailedRuns');
      expect(send).toMatchObject({ Action: 'sqs:SendMessage', Resource: queueArn });
    }
    const queueAlarm = alarms().find((a) => JSON.stringify(a.props.Dimensions ?? []).includes(queueId));
    expect(queueAlarm?.props).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1 });
  });

  it('watches the failures of every background run (one metric for all of them)', () => {
    const [failures] = find('BackgroundFailures');
    expect(failures.props).toMatchObject({
      Namespace: 'Workplace',
      Dimensions: [{ Name: 'service', Value: 'workplace' }],
      Statistic: 'Sum',
      Threshold: 1,
    });
  });

  it('watches SES bounces and complaints', () => {
    expect(find('Reputation.BounceRate')[0].props).toMatchObject({ Namespace: 'AWS/SES', Threshold: 0.05 });
    expect(find('Reputation.ComplaintRate')[0].props).toMatchObject({ Namespace: 'AWS/SES', Threshold: 0.001 });
  });

  it('watches CloudFront 5xx from us-east-1, where its metrics are, e-mailing the operators there', () => {
    const [cf] = find('5xxErrorRate');
    expect(cf.stack).toBe(`${prefix()}-EdgeAlarms`);
    expect(s.built.edgeAlarms!.region).toBe(EDGE_METRICS_REGION);
    expect(cf.props.Namespace).toBe('AWS/CloudFront');
    // The distribution id, read across regions from the edge stack at deploy time.
    expect(JSON.stringify(cf.props.Dimensions)).toContain('Fn::GetStackOutput');
    const t = s.templates.get(`${prefix()}-EdgeAlarms`)!;
    t.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.org' });
  });
});

describe('edge headers', () => {
  it('sets HSTS, nosniff, Referrer-Policy and a frame policy on every behaviour', () => {
    const [[policyId, policy]] = resourcesOf(edge(), 'AWS::CloudFront::ResponseHeadersPolicy');
    expect(policy.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig).toEqual({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
    });
    const config = resourcesOf(edge(), 'AWS::CloudFront::Distribution')[0][1].Properties!.DistributionConfig;
    const behaviours = [config.DefaultCacheBehavior, ...config.CacheBehaviors];
    for (const b of behaviours)
      expect(b.ResponseHeadersPolicyId, b.PathPattern ?? 'default').toEqual({ Ref: policyId });
  });
});
