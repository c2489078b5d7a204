import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { loadSecrets } from '../config/secrets.ts';
import { logger } from './logger.ts';
import { metrics } from './metrics.ts';

/**
 * The Powertools middlewares every function wears, HTTP route or background, as in Powertools' example
 * app: the Lambda context (request id, cold start, function name) in every log line, keys appended
 * during one invocation dropped before the next (`resetKeys`), and the stored metrics flushed once per
 * invocation with a `ColdStart` metric. The cold-start metric's `function_name` dimension is the area
 * (auth, feed, …), not the function: a few dozen series rather than one per function.
 */
export function instrument<E, R>(handler: middy.MiddyfiedHandler<E, R, Error, Context>, area: string) {
  metrics.setFunctionName(area);
  return handler
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(injectLambdaContext(logger, { resetKeys: true }));
}

/**
 * A background function (stream consumer, schedule, custom resource) with the same instrumentation. It
 * records `BackgroundFailures` (0 or 1) on every run: one series for every background function, which
 * the operators' alarm watches, and never an empty metric set (Powertools warns on those).
 */
export function backgroundHandler<E, R>(area: string, fn: (event: E, context: Context) => Promise<R>) {
  const counted = async (event: E, context: Context): Promise<R> => {
    try {
      // Deployed: the secrets this function is granted, fetched on first use (shared/config/secrets.ts).
      await loadSecrets();
      const result = await fn(event, context);
      metrics.addMetric('BackgroundFailures', MetricUnit.Count, 0);
      return result;
    } catch (err) {
      metrics.addMetric('BackgroundFailures', MetricUnit.Count, 1);
      throw err;
    }
  };
  return instrument(middy<E, R, Error, Context>(counted), area);
}
