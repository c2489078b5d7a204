import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * CloudWatch metrics in the embedded metric format (Powertools), flushed by the `logMetrics` middleware
 * of every function (shared/observability/instrumented.ts). The local runtime turns them off
 * (POWERTOOLS_METRICS_DISABLED) so its log stays readable.
 *
 * Every custom metric has only the `service` dimension (and `function_name` = the area for ColdStart),
 * so the series stay a few dozen however many routes there are (a series costs $0.30 a month). What
 * Lambda and API Gateway already measure per function — invocations, errors, duration, throttles — is
 * not repeated here. docs/deployment.md lists what each metric is for.
 */
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Workplace',
  serviceName: 'workplace',
});

/**
 * The metrics of one answered request: counted by class of status, never by route or caller.
 * `capacityRefusal`: a 503 that is the design working (a person at the live-stream cap), counted
 * apart so the operators' 5xx alarm does not page for it; every other 503 (a dependency, the request
 * deadline) still counts as `DependencyUnavailable`.
 */
export function recordRequest(status: number | undefined, { capacityRefusal = false } = {}): void {
  // Requests: the denominator of the error rates below, across all routes.
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  // ClientErrors: a rise after a release means clients and server disagree (validation, auth).
  if (status !== undefined && status >= 400 && status < 500) metrics.addMetric('ClientErrors', MetricUnit.Count, 1);
  // CapacityRefused: a limit of the service refused the request as designed (clients retry later).
  if (status === 503 && capacityRefusal) metrics.addMetric('CapacityRefused', MetricUnit.Count, 1);
  // DependencyUnavailable: 503s, the table or bucket throttled, failing or slow (clients retry).
  else if (status === 503) metrics.addMetric('DependencyUnavailable', MetricUnit.Count, 1);
  // ServerErrors: bugs (500) and everything else unanswered; the operators' alarm watches it.
  else if (status === undefined || status >= 500) metrics.addMetric('ServerErrors', MetricUnit.Count, 1);
}
