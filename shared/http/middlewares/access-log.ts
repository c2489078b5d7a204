import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
import { DomainError } from '../../errors.ts';
import { logger } from '../../observability/logger.ts';
import { recordRequest } from '../../observability/metrics.ts';
import { contextOf } from './request-context.ts';

/**
 * One line and one metric set per request: route, status, duration; the caller's id only outside
 * grievance routes (their anonymity: docs/security.md). The Lambda context (request id, cold start) comes with
 * every line (instrument()). A streaming route logs when its answer starts (status and headers sent).
 */
export const accessLog = (def: AnyRoute): MiddlewareObj<APIGatewayProxyEventV2, { statusCode?: number }> => {
  const log = (request: Request<APIGatewayProxyEventV2, { statusCode?: number }>) => {
    const { ctx, started } = contextOf(request);
    const status = request.response?.statusCode;
    const ms = Date.now() - (started ?? Date.now());
    const fields: Record<string, unknown> = { route: def.name, method: def.method, status, ms };
    if (!def.anonymous && ctx?.callerIfSignedIn) fields.userId = ctx.callerIfSignedIn.userId;
    logger.info('request', fields);
    // A DomainError 'unavailable' is a capacity of the service refusing as designed (the per-person
    // live-stream cap): 503 for the client, but no page for the operators.
    recordRequest(status, {
      capacityRefusal: request.error instanceof DomainError && request.error.kind === 'unavailable',
    });
  };
  return { name: 'access-log', after: log, onError: log };
};
