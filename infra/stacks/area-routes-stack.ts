import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import { operatorAlarm } from '../constructs/alarms.ts';
import { RouteFunction } from '../constructs/route-function.ts';
import type { DeployConfig } from './config.ts';
import { layersFor } from './data-stack.ts';
import type { SharedData } from './shared-data.ts';

export interface AreaRoutesStackProps extends StackProps {
  area: string;
  /** The routes of the route table whose `area` is this one. */
  routes: AnyRoute[];
  httpApi: IHttpApi;
  data: SharedData;
  config: DeployConfig;
  /** The packages the data stack publishes as layers, for the functions whose bundles import them. */
  layerPackages?: string[];
}

/** `get-docs-asset` → `GetDocsAsset` */
export const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

/**
 * The routes of one area: a `RouteFunction` per route (function, log group, role, and for
 * non-streaming routes the HTTP API route, integration and invoke permission, about 7 resources per
 * route). One stack per area keeps each far below CloudFormation's 500 resources per stack; the app
 * checks the count at synthesis.
 */
export class AreaRoutesStack extends Stack {
  readonly area: string;
  readonly routeFunctions: RouteFunction[] = [];

  constructor(scope: Construct, id: string, props: AreaRoutesStackProps) {
    super(scope, id, props);
    this.area = props.area;
    const layers = layersFor(this, props.config, props.layerPackages ?? []);
    for (const route of props.routes) {
      if (route.area !== props.area) throw new Error(`Route ${route.name} belongs to ${route.area}, not ${props.area}`);
      const routeFunction = new RouteFunction(this, pascal(route.name), {
        route,
        data: props.data,
        config: props.config,
        httpApi: props.httpApi,
        layers,
      });
      this.routeFunctions.push(routeFunction);
      // The routes behind the HTTP API are watched by its 5xx alarm; a streaming route is not behind it.
      if (route.streaming) {
        const fn = routeFunction.function;
        const period = Duration.minutes(5);
        operatorAlarm(routeFunction, 'StreamErrorsAlarm', props.data.alarmTopicArn, {
          metric: fn.metricErrors({ period, statistic: 'Sum' }),
          threshold: 1,
          description: `${route.name} failed (its log group has the error): live-update streams were cut.`,
        });
        operatorAlarm(routeFunction, 'StreamThrottlesAlarm', props.data.alarmTopicArn, {
          metric: fn.metricThrottles({ period, statistic: 'Sum' }),
          threshold: 1,
          description: `${route.name} reached its reserved concurrency (workplace:streamReservedConcurrency = ${props.config.streamReservedConcurrency}): that many clients can be connected at once, orphaned executions of closed tabs included, and new streams were refused (Lambda's 429 before the function runs; a browser's EventSource sees only an error event). Raise the setting within the account's Lambda concurrency quota (Service Quotas, 'Concurrent executions'; rerun the preflight).`,
        });
        // A warning before the ceiling: the open streams at 80 % of the reservation for 15 minutes.
        operatorAlarm(routeFunction, 'StreamConcurrencyAlarm', props.data.alarmTopicArn, {
          metric: fn.metric('ConcurrentExecutions', { period, statistic: 'Maximum' }),
          threshold: Math.ceil(props.config.streamReservedConcurrency * 0.8),
          evaluationPeriods: 3,
          description: `${route.name} holds more than 80 % of its reserved concurrency (${props.config.streamReservedConcurrency}) in open streams: at the reservation, new clients are throttled. Raise workplace:streamReservedConcurrency within the account's quota.`,
        });
      }
    }
  }
}
