import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AnyRoute } from '../api/route-def.ts';
import { logger } from '../observability/logger.ts';
import { metrics, recordRequest } from '../observability/metrics.ts';
import { corsHeaders } from './middlewares/cors.ts';
import { dependencyUnavailable } from './middlewares/http-errors.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * Time kept back from the function's own limit. Were the function to run out, API Gateway would answer
 * for it (503 "Service Unavailable" without the common body or Retry-After); stopping this much earlier
 * leaves time to answer ourselves.
 */
export const RESPONSE_RESERVE_MS = 1_000;

/**
 * Gives the whole request (session lookup included, not just the route's function) a deadline taken
 * from the Lambda context's remaining time: past it, the answer is the service's own 503 with
 * Retry-After. What was still running is left behind; the environment is frozen once we answer.
 */
export function withDeadline(def: AnyRoute, handler: Handler): Handler {
  return (event, context) => {
    if (typeof context?.getRemainingTimeInMillis !== 'function') return handler(event, context);
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<APIGatewayProxyStructuredResultV2>((resolve) => {
      timer = setTimeout(
        () => {
          const ms = Date.now() - started;
          logger.warn('request deadline reached', { route: def.name, method: def.method, status: 503, ms });
          // The middleware chain has not finished, so its logMetrics cannot flush this answer's metrics.
          recordRequest(503);
          metrics.publishStoredMetrics();
          const answer = dependencyUnavailable().toResponse();
          answer.headers = { ...answer.headers, ...corsHeaders(event.headers?.origin) };
          resolve(answer);
        },
        Math.max(0, context.getRemainingTimeInMillis() - RESPONSE_RESERVE_MS),
      );
    });
    return Promise.race([handler(event, context), deadline]).finally(() => clearTimeout(timer));
  };
}
