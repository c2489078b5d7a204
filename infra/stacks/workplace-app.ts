import { Annotations, type App, CfnResource, type Environment, type Stack, Tags, Token } from 'aws-cdk-lib';
import {
  streamConsumers as consumerTable,
  type Schedule,
  type StreamConsumer,
  schedules as scheduleTable,
} from '../../shared/api/background.ts';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import { routes as routeTable } from '../../shared/api/routes/index.ts';
import { ApiStack } from './api-stack.ts';
import { AreaRoutesStack, pascal } from './area-routes-stack.ts';
import { BackgroundStack } from './background-stack.ts';
import { type DeployConfig, readConfig } from './config.ts';
import { DataStack } from './data-stack.ts';
import { EDGE_METRICS_REGION, EdgeAlarmsStack } from './edge-alarms-stack.ts';
import { EdgeStack } from './edge-stack.ts';
import { deploymentProblems, type EnvironmentSettings } from './environment.ts';

/** CloudFormation's limit is 500 resources per stack; synthesis fails at the limit and warns near it. */
export const MAX_RESOURCES_PER_STACK = 500;
const WARN_RESOURCES_PER_STACK = 400;

export interface BuildAppOptions {
  /** Defaults to the route table (`shared/api/routes/index.ts`). */
  routes?: AnyRoute[];
  /** Default to `shared/api/background.ts`. */
  streamConsumers?: StreamConsumer[];
  schedules?: Schedule[];
  /** Overrides of the context-derived settings (tests). */
  config?: Partial<DeployConfig>;
  /** Defaults to the CLI's account and region (environment-agnostic when unset). */
  env?: Environment;
  /** Layer folders by package (default: the built folders under layers/). */
  layerDirs?: Record<string, string>;
  /**
   * A real deployment (infra/app.ts): the environment whose file the settings come from. Its
   * placeholders, a missing origin list and `*` are refused (the local runtime and the template
   * tests' fixtures do not pass this).
   */
  deployment?: { name: string; settings: EnvironmentSettings };
}

export interface WorkplaceApp {
  config: DeployConfig;
  data: DataStack;
  api: ApiStack;
  /** One stack per area, in route-table order. */
  areas: AreaRoutesStack[];
  background: BackgroundStack;
  /** Absent with `workplace:edge=false`. */
  edge?: EdgeStack;
  /** The CloudFront alarms in us-east-1 (where CloudFront's metrics are), when the edge stack is elsewhere. */
  edgeAlarms?: EdgeAlarmsStack;
  /** Every stack, in deployment order. */
  stacks: Stack[];
}

/** Groups routes by area, keeping the route table's order. */
export function routesByArea(routes: AnyRoute[]): Map<string, AnyRoute[]> {
  const byArea = new Map<string, AnyRoute[]>();
  for (const r of routes) byArea.set(r.area, [...(byArea.get(r.area) ?? []), r]);
  return byArea;
}

/**
 * The whole service: `<prefix>-Data` (table, bucket, secrets, layers, mail identity, alarm topic),
 * `<prefix>-Api` (the HTTP API and its stage), `<prefix>-Routes-<Area>` for every area of the route
 * table, `<prefix>-Background` (stream consumers, schedules, deploy hook) and `<prefix>-Edge` (the
 * CloudFront distribution: the one base address). Everything is driven by the route table and
 * `shared/api/background.ts`: a route added there becomes a function and an API route in its area's
 * stack, a consumer or schedule a function with its mapping or schedule.
 */
export function buildApp(app: App, options: BuildAppOptions = {}): WorkplaceApp {
  const config = readConfig(app, options.config);
  if (options.deployment) {
    const problems = deploymentProblems(options.deployment.settings, config);
    if (problems.length) {
      throw new Error(
        `infra/environments/${options.deployment.name}.json cannot be deployed:\n${problems.map((p) => `- ${p}`).join('\n')}`,
      );
    }
  }
  const env = options.env ?? { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const routes = options.routes ?? routeTable;

  const data = new DataStack(app, `${config.prefix}-Data`, {
    env,
    config,
    layerDirs: options.layerDirs,
    description: 'Workplace collaboration service: table, media bucket, secrets, layers.',
  });
  const api = new ApiStack(app, `${config.prefix}-Api`, {
    env,
    config,
    alarmTopicArn: data.shared.alarmTopicArn,
    description: 'Workplace collaboration service: HTTP API.',
  });
  api.addStackDependency(data);
  const areas: AreaRoutesStack[] = [];
  for (const [area, areaRoutes] of routesByArea(routes)) {
    const stack = new AreaRoutesStack(app, `${config.prefix}-Routes-${pascal(area)}`, {
      env,
      config,
      area,
      routes: areaRoutes,
      httpApi: api.httpApi,
      data: data.shared,
      layerPackages: Object.keys(data.layers),
      description: `Workplace collaboration service: ${area} routes.`,
    });
    // The data values are names (infra/stacks/names.ts), which CDK does not track: deploy after them.
    stack.addStackDependency(data);
    areas.push(stack);
  }

  const background = new BackgroundStack(app, `${config.prefix}-Background`, {
    env,
    config,
    consumers: options.streamConsumers ?? consumerTable,
    schedules: options.schedules ?? scheduleTable,
    data: data.shared,
    layerPackages: Object.keys(data.layers),
    description: 'Workplace collaboration service: stream consumers, schedules, deploy hook.',
  });
  background.addStackDependency(data);
  // The deploy hook runs after every route's new code is live.
  for (const area of areas) background.addStackDependency(area);

  const edge = config.edge
    ? new EdgeStack(app, `${config.prefix}-Edge`, {
        env,
        config,
        httpApi: api.httpApi,
        apiOriginDomainName: api.originDomainName,
        media: { bucketName: data.shared.bucketName, bucketArn: data.shared.bucketArn },
        streaming: areas
          .flatMap((a) => a.routeFunctions)
          .filter((f) => f.functionUrl)
          .map((f) => ({ route: f.route, url: f.functionUrl! })),
        description: 'Workplace collaboration service: CloudFront distribution (one base address).',
      })
    : undefined;
  edge?.addStackDependency(data);
  const edgeAlarms = edge ? edgeAlarmsStack(app, edge, config, data.shared.alarmTopicArn) : undefined;
  const stacks: Stack[] = [
    data,
    api,
    ...areas,
    background,
    ...(edge ? [edge] : []),
    ...(edgeAlarms ? [edgeAlarms] : []),
  ];

  Tags.of(app).add('service', 'workplace');
  if (config.allowedOrigins.includes('*')) {
    Annotations.of(data).addWarningV2(
      'workplace:allowedOriginsAny',
      'workplace:allowedOrigins is "*": any site may call the API with credentials and upload to the bucket. Set the web client origins.',
    );
  }
  const missing = new Map<string, string[]>();
  const services = [
    ...areas.flatMap((a) => a.routeFunctions.map((f) => ({ name: f.route.name, service: f.service }))),
    ...background.services.map((service) => ({ name: service.node.id, service })),
  ];
  for (const { name, service } of services) {
    for (const pkg of service.missingLayers) missing.set(pkg, [...(missing.get(pkg) ?? []), name]);
  }
  // An error, not a warning: the CLI then refuses to synthesise or deploy (`npx cdk deploy --all`
  // without `npm run deploy` would otherwise ship functions that cannot start).
  for (const [pkg, names] of missing) {
    Annotations.of(data).addError(
      `${names.length} function(s) import ${pkg} at run time but layers/${pkg} is not built (nodejs/node_modules/${pkg} for linux-arm64), so they could not start: run \`npm run build:layers\` first (\`npm run deploy\` does). ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}`,
    );
  }
  for (const stack of stacks) checkResourceCount(stack);
  return { config, data, api, areas, background, edge, edgeAlarms, stacks };
}

/**
 * CloudFront publishes its metrics in us-east-1 only, and an alarm watches metrics of its own region:
 * the distribution's 5xx alarm lives in the edge stack when that is in us-east-1, otherwise in a small
 * `<prefix>-EdgeAlarms` stack there (which reads the distribution id across regions, and notifies a
 * topic of its own region). An environment-agnostic synthesis cannot place it (warned).
 */
function edgeAlarmsStack(app: App, edge: EdgeStack, config: DeployConfig, topicArn: string) {
  if (Token.isUnresolved(edge.region)) {
    Annotations.of(edge).addWarningV2(
      'workplace:edgeAlarms',
      'No CloudFront 5xx alarm: its region (us-east-1) is only known when the app is synthesised for an explicit account and region (deploy with credentials).',
    );
    return undefined;
  }
  if (edge.region === EDGE_METRICS_REGION) {
    edge.addErrorAlarm(topicArn);
    return undefined;
  }
  const stack = new EdgeAlarmsStack(app, `${config.prefix}-EdgeAlarms`, {
    env: { account: Token.isUnresolved(edge.account) ? undefined : edge.account, region: EDGE_METRICS_REGION },
    config,
    distributionId: edge.distribution.distributionId,
    description: 'Workplace collaboration service: CloudFront alarms (us-east-1, where its metrics are).',
  });
  stack.addStackDependency(edge);
  return stack;
}

/** The CloudFormation resources a stack will hold (every resource is created at construction here). */
export const resourceCount = (stack: Stack) => stack.node.findAll().filter((c) => CfnResource.isCfnResource(c)).length;

function checkResourceCount(stack: Stack) {
  const n = resourceCount(stack);
  if (n >= MAX_RESOURCES_PER_STACK) {
    Annotations.of(stack).addError(
      `${stack.stackName} has ${n} resources (limit ${MAX_RESOURCES_PER_STACK}): split the area.`,
    );
  } else if (n >= WARN_RESOURCES_PER_STACK) {
    Annotations.of(stack).addWarningV2(
      'workplace:resourceCount',
      `${stack.stackName} has ${n} resources (limit ${MAX_RESOURCES_PER_STACK}).`,
    );
  }
}
