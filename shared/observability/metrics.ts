import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * CloudWatch metrics in the embedded metric format (Powertools): one set per request, by route. The
 * local runtime turns them off (POWERTOOLS_METRICS_DISABLED) so its log stays readable.
 */
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Workplace',
  serviceName: 'workplace',
});

export function recordRequest(route: string, status: number | undefined, ms: number): void {
  metrics.addDimension('route', route);
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  if (status !== undefined && status >= 400 && status < 500) metrics.addMetric('ClientErrors', MetricUnit.Count, 1);
  if (status === undefined || status >= 500) metrics.addMetric('ServerErrors', MetricUnit.Count, 1);
  metrics.addMetric('Latency', MetricUnit.Milliseconds, ms);
  metrics.publishStoredMetrics();
}
