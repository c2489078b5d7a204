import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Code,
  FunctionUrl,
  FunctionUrlAuthType,
  type ILayerVersion,
  InvokeMode,
  Function as LambdaFunction,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  accessStatements,
  leadingKeysCondition,
  type PolicyResource,
  routeFunctionAccess,
} from '../../shared/api/access-policy.ts';
import { DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_SECONDS } from '../../shared/api/function-settings.ts';
import { type AnyRoute, handlerFile, type RouteAccess, routeKey, routeMethods } from '../../shared/api/route-def.ts';
import type { ScopedSetting } from '../../shared/config/scoped-settings.ts';
import { assetDir, bundleExternals, bundleSettings, functionExtras } from '../build/bundle.ts';
import {
  type DeployConfig,
  grievanceEnvironment,
  isGrievanceFunction,
  isModerationFunction,
  mediaSigningParameterName,
} from '../stacks/config.ts';
import { mailAddressOf, type SharedData } from '../stacks/shared-data.ts';
import { acknowledge, acknowledgeWildcards } from './acknowledge.ts';
import { cfnText, METRICS_NAMESPACE, POWERTOOLS_SERVICE_NAME } from './naming.ts';
import { secretArns, secretGrants } from './secret-grants.ts';

export { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS } from '../../shared/api/access-policy.ts';

/** The functions that sign people in, which single sign-on's settings reach (docs/sso.md). */
const SIGN_IN_HANDLERS = [
  'functions/auth/sign-in-email.ts',
  'functions/auth/sign-in-sso.ts',
  'functions/auth/sso-callback.ts',
];

/** Powertools (structured logs, metrics): the service name and the CloudWatch metrics namespace. */

export interface ServiceFunctionProps {
  /** Project-relative handler module (`functions/<area>/<name>.ts`); its bundle is `dist/<module>/`. */
  handler: string;
  description: string;
  access?: RouteAccess;
  /** A session route: may extend the caller's session item even when read-only (shared/api/access-policy.ts). */
  refreshesSession?: boolean;
  /** Honours `Idempotency-Key`: a narrowed write grant covers its records too. */
  idempotent?: boolean;
  /** Declares `audit`: a narrowed write grant covers its audit log entries too. */
  audited?: boolean;
  timeoutSeconds?: number;
  memoryMb?: number;
  data: SharedData;
  config: DeployConfig;
  /** Layers by package; a function whose bundle imports one of these packages gets its layer. */
  layers?: Record<string, ILayerVersion>;
  /** Variables besides the service's own (the deploy hook's first admin). */
  environment?: Record<string, string>;
  /** Reserved concurrency (the streaming routes: their executions cannot starve the other functions). */
  reservedConcurrency?: number;
  /** Statements besides those `access` implies (a stream consumer's stream reads), with the reason for any wildcard. */
  statements?: GrantedStatement[];
  /** A physical name, for a function the deploy preflight looks up (the stream's reservation). */
  functionName?: string;
}

export interface GrantedStatement {
  statement: PolicyStatement;
  /** Required when the statement has a wildcard resource: why it cannot be narrower (acknowledged for cdk-nag). */
  wildcardReason?: string;
}

/**
 * One Lambda function of the service from the bundle in dist/ (`infra/build/bundle.ts`): Node.js 22
 * on arm64, its own log group with retention, and a role holding exactly what `access` declares.
 *
 * The application secrets are not in the configuration: a function whose bundle reads one gets its
 * ARN and may read that secret at run time (infra/constructs/secret-grants.ts, shared/config/secrets.ts).
 */
export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  /** Packages the bundle imports at run time for which no layer was given (the function cannot start). */
  readonly missingLayers: string[] = [];

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { data, config, access = {} } = props;
    const stack = Stack.of(this);

    this.logGroup = new LogGroup(this, 'Logs', { retention: config.logRetention });

    const statements: GrantedStatement[] = [
      {
        statement: new PolicyStatement({
          sid: 'Logs',
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [this.logGroup.logGroupArn],
        }),
      },
    ];
    const platformApplications = [config.push.fcmApplicationArn, config.push.apnsApplicationArn].filter(
      (arn): arn is string => !!arn,
    );
    // With workplace:mailFrom, exactly the sender's identities (its address, which the data stack
    // verifies, or its domain when that is verified instead); without it, any verified identity.
    const mailAddress = config.mailFrom ? mailAddressOf(config.mailFrom) : undefined;
    const identity = (name: string) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: name });
    // Public media URLs (shared/storage/public-urls.ts): with the edge stack and a signing key, the
    // function reads the private key (one secret) and the edge stack's signing parameter at run time.
    const media = access.publicMedia && config.edge ? config.mediaSigning : undefined;
    const mediaParameter = mediaSigningParameterName(config.prefix);
    /** ARNs of an abstract resource of the shared derivation (none: the statement is left out), and why any wildcard. */
    const resolve = (resource: PolicyResource): { arns: string[]; wildcardReason?: string } => {
      switch (resource.kind) {
        case 'table':
          return { arns: [data.tableArn] };
        case 'index':
          return { arns: [`${data.tableArn}/index/${resource.name}`] };
        case 'bucket':
          return { arns: [data.bucketArn] };
        case 'objects':
          return {
            arns: [`${data.bucketArn}/${resource.prefix}*`],
            wildcardReason: `Objects under the key prefix "${resource.prefix}" this route declares (route access.bucket); object keys are generated per upload.`,
          };
        case 'pushApplications':
          // None configured: push is off and no endpoint can be created.
          return { arns: platformApplications };
        case 'pushEndpoints':
          return {
            arns: [stack.formatArn({ service: 'sns', resource: 'endpoint', resourceName: '*' })],
            wildcardReason: 'Push delivery: endpoint ARNs are created per device at run time.',
          };
        case 'mailIdentities':
          return mailAddress
            ? { arns: [identity(mailAddress), identity(mailAddress.split('@')[1])] }
            : {
                arns: [identity('*')],
                wildcardReason:
                  'Sends as the verified SES identities of this account and region (set workplace:mailFrom to narrow it to the sender).',
              };
        case 'mediaSigningSecret':
          return { arns: media ? [secretArnOf(stack, media.secret)] : [] };
        case 'appSecret':
          return { arns: [secretArns(data)[resource.name]] };
        case 'mediaSigningParameter':
          return {
            arns: media
              ? [stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: mediaParameter.slice(1) })]
              : [],
          };
        case 'mediaDistribution':
          return media
            ? {
                arns: [`arn:${stack.partition}:cloudfront::${stack.account}:distribution/*`],
                wildcardReason:
                  'Invalidates erased media at the edge: the distribution is made by the edge stack after this function (it needs the API), so its id is read at run time from the media signing parameter.',
              }
            : { arns: [] };
      }
    };
    const secrets = secretGrants(props.handler, data);
    for (const s of accessStatements({
      access,
      refreshesSession: props.refreshesSession,
      idempotent: props.idempotent,
      audited: props.audited,
      secrets: secrets.names,
    })) {
      const resolved = s.resources.map(resolve);
      const resources = resolved.flatMap((r) => r.arns);
      if (!resources.length) continue;
      const wildcardReason = resolved.find((r) => r.wildcardReason)?.wildcardReason;
      statements.push({
        statement: new PolicyStatement({
          sid: s.sid,
          actions: s.actions,
          resources,
          conditions: s.leadingKeys ? leadingKeysCondition(s.leadingKeys) : undefined,
        }),
        wildcardReason,
      });
    }

    statements.push(...(props.statements ?? []));

    // An inline policy on a role of its own (no AWS managed policy): exactly the statements above.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.handler}`,
      inlinePolicies: { access: new PolicyDocument({ statements: statements.map((s) => s.statement) }) },
    });
    for (const { statement, wildcardReason } of statements) {
      if (wildcardReason) acknowledgeWildcards(this.role, statement, wildcardReason);
    }

    const environment: Record<string, string> = {
      TABLE_NAME: data.tableName,
      BUCKET_NAME: data.bucketName,
      SERVICE_VERSION: config.serviceVersion,
      COMPANY_TIMEZONE: config.companyTimezone,
      ALLOWED_ORIGINS: config.allowedOrigins.join(','),
      LOG_LEVEL: config.logLevel,
      ...secrets.environment,
      // The maps ship with every bundle; loading them is opt-in (docs/cold-starts.md).
      ...(config.sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
      POWERTOOLS_SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      ...(access.ses && config.mailFrom ? { MAIL_FROM: config.mailFrom } : {}),
      ...(access.sns && config.push.fcmApplicationArn
        ? { PUSH_FCM_APPLICATION_ARN: config.push.fcmApplicationArn }
        : {}),
      ...(access.sns && config.push.apnsApplicationArn
        ? { PUSH_APNS_APPLICATION_ARN: config.push.apnsApplicationArn }
        : {}),
      ...(media ? { MEDIA_SIGNING_SECRET: media.secret, MEDIA_SIGNING_PARAMETER: mediaParameter } : {}),
      // Deadlines and retention (docs/grievance-channel.md): the grievance routes and sweeps.
      ...(isGrievanceFunction(props.handler) ? grievanceEnvironment(config.grievances) : {}),
      // The audit log's retention (docs/audit-log.md): the entries' TTL and the log's earliest answer.
      AUDIT_RETENTION_DAYS: String(config.auditRetentionDays),
      // Content reports (docs/moderation.md): the reporters' threshold.
      ...(isModerationFunction(props.handler) ? { REPORT_HIDE_THRESHOLD: String(config.reportHideThreshold) } : {}),
      // Single sign-on (docs/sso.md): the functions that sign people in.
      ...(config.sso && SIGN_IN_HANDLERS.includes(props.handler)
        ? {
            OIDC_ISSUER: config.sso.issuer,
            OIDC_CLIENT_ID: config.sso.clientId,
            OIDC_EMAIL_DOMAINS: config.sso.emailDomains,
            PASSWORD_SIGN_IN: config.sso.passwordSignIn,
            SSO_CREATE_MEMBERS: config.sso.createsMembers,
          }
        : {}),
      // The settings a rule depends on, on every function whose code runs that rule (its bundle reads them).
      ...scopedSettings(props.handler, config),
      ...(functionExtras[props.handler]?.environment ?? {}),
      ...(props.environment ?? {}),
    };

    const bundleDir = assetDir(props.handler);
    if (!existsSync(join(bundleDir, 'index.mjs'))) {
      throw new Error(
        `No bundle for ${props.handler} in ${bundleDir}: run \`npm run bundle\` (or ensureBundled()) first.`,
      );
    }
    const layers: ILayerVersion[] = [];
    for (const pkg of bundleExternals(props.handler)) {
      const layer = props.layers?.[pkg];
      if (layer) layers.push(layer);
      else this.missingLayers.push(pkg);
    }

    this.function = new LambdaFunction(this, 'Function', {
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      code: Code.fromAsset(bundleDir),
      handler: 'index.handler',
      description: cfnText(props.description, 256),
      timeout: Duration.seconds(props.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      memorySize: props.memoryMb ?? DEFAULT_MEMORY_MB,
      role: this.role,
      logGroup: this.logGroup,
      environment,
      layers: layers.length ? layers : undefined,
      reservedConcurrentExecutions: props.reservedConcurrency,
      functionName: props.functionName,
      // X-Ray traces of every invocation (Lambda's own segments: init, invocation, overhead) at no bundle
      // cost; the Powertools Tracer's SDK subsegments are left out for the cold start (docs/cold-starts.md).
      tracing: Tracing.ACTIVE,
    });
    acknowledge(
      this.role,
      'AwsSolutions-IAM5[Resource::*]',
      'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords have no resource-level permissions.',
    );
    acknowledge(
      this.function,
      'AwsSolutions-L1',
      'Node.js 22 is the runtime the service is built and tested for (package.json engines, esbuild target node22); moving to a newer runtime is a deliberate upgrade.',
    );
  }
}

export interface RouteFunctionProps {
  route: AnyRoute;
  data: SharedData;
  config: DeployConfig;
  /** When given, the route is added to this API (streaming routes excepted). */
  httpApi?: IHttpApi;
  layers?: Record<string, ILayerVersion>;
}

/**
 * One route of the route table, deployed: its function (`ServiceFunction`, fed by the route's
 * access, timeout and memory) and, unless the route streams its answer, the HTTP API route
 * `METHOD /path` (or `$default`) with a Lambda proxy integration (payload format 2.0).
 */
export class RouteFunction extends Construct {
  readonly route: AnyRoute;
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly service: ServiceFunction;
  readonly httpRoute?: HttpRoute;
  /** Streaming routes: the Function URL (response streaming, IAM auth) CloudFront reaches them through. */
  readonly functionUrl?: FunctionUrl;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;
    this.route = route;

    const service = new ServiceFunction(this, 'Service', {
      layers: props.layers,
      handler: handlerFile(route),
      description: `${route.path === '$default' ? '$default' : routeKey(route)}: ${route.summary}`,
      ...routeFunctionAccess(route),
      timeoutSeconds: route.timeout,
      memoryMb: route.memory,
      // One execution per open stream, for up to 15 minutes: capped, so open tabs cannot take the
      // account's whole pool from the other routes.
      reservedConcurrency: route.streaming ? props.config.streamReservedConcurrency : undefined,
      // Named per environment, so the preflight can read its current reservation (infra/deploy/preflight.ts).
      functionName: route.streaming ? streamingFunctionName(props.config.prefix, route.name) : undefined,
      data: props.data,
      config: props.config,
    });
    this.service = service;
    this.function = service.function;
    this.role = service.role;

    // Streaming routes answer through a Function URL in RESPONSE_STREAM mode, not through the HTTP
    // API (which buffers answers). AWS_IAM auth: only the CloudFront distribution (origin access
    // control, infra/stacks/edge-stack.ts) may call it. The URL answers CORS preflights itself,
    // with the same rules as the API's catch-all route (shared/http/middlewares/cors.ts).
    if (route.streaming) {
      const anyOrigin = props.config.allowedOrigins.includes('*');
      this.functionUrl = new FunctionUrl(this, 'Url', {
        function: this.function,
        authType: FunctionUrlAuthType.AWS_IAM,
        invokeMode: InvokeMode.RESPONSE_STREAM,
        cors: {
          allowedOrigins: anyOrigin ? ['*'] : props.config.allowedOrigins,
          allowCredentials: !anyOrigin,
          allowedHeaders: ['authorization', 'content-type', 'last-event-id', 'x-requested-with'],
          exposedHeaders: ['set-auth-token'],
          maxAge: Duration.minutes(10),
        },
      });
    }
    if (props.httpApi && !route.streaming) {
      const integration = new HttpLambdaIntegration('Integration', this.function);
      // HTTP API routes are per method: a cacheable GET gets its HEAD route too (routeMethods).
      for (const method of routeMethods(route)) {
        const httpRoute = new HttpRoute(this, method === route.method ? 'Route' : `Route${method}`, {
          httpApi: props.httpApi,
          routeKey: httpRouteKey({ path: route.path, method }),
          integration,
        });
        this.httpRoute ??= httpRoute;
        acknowledge(
          httpRoute,
          'AwsSolutions-APIG4',
          `Authorization happens in the function: the route's auth is "${route.auth}" (public, or a session resolved and, for super_admin, the role read fresh on every request by the handler wrapper).`,
        );
      }
    }
  }
}

/**
 * The scoped settings' variables for a function, from what its bundle reads
 * (shared/config/scoped-settings.ts): the break-glass address is the first super admin's
 * (`workplace:adminEmail`), on every function that enforces it, whether or not single sign-on is on.
 */
function scopedSettings(handler: string, config: DeployConfig): Record<string, string> {
  const values: Record<ScopedSetting, Record<string, string>> = {
    breakGlass: config.adminEmail ? { SSO_BREAK_GLASS_EMAIL: config.adminEmail } : {},
  };
  return Object.assign({}, ...bundleSettings(handler).map((name) => values[name]));
}

/** The physical name of a streaming route's function (at most 64 characters). */
export const streamingFunctionName = (prefix: string, routeName: string) => `${prefix}-${routeName}`.slice(0, 64);

/**
 * A secret given by ARN, or by name: then any of its versions' ARNs (Secrets Manager appends six
 * random characters to the name).
 */
export function secretArnOf(stack: Stack, secret: string): string {
  if (secret.startsWith('arn:')) return secret;
  return stack.formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    resourceName: `${secret}-??????`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

/** `$default` → the catch-all key; otherwise `METHOD /path`. */
export function httpRouteKey(route: Pick<AnyRoute, 'method' | 'path'>): HttpRouteKey {
  if (route.path === '$default') return HttpRouteKey.DEFAULT;
  return HttpRouteKey.with(route.path, HttpMethod[route.method]);
}
