import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { authenticate } from '../../access/caller.ts';
import type { AnyRoute } from '../../api/route-def.ts';
import type { RequestContext } from '../context.ts';
import { requestCookie, SESSION_COOKIE } from '../cookies.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import { originAllowed } from './cors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Deployed, the live-update stream is a Lambda Function URL behind CloudFront with origin access
 * control, which signs each request with SigV4 and so replaces `Authorization`; a CloudFront Function
 * first copies the client's header into this one (infra/stacks/edge-stack.ts).
 */
export const CLIENT_AUTHORIZATION_HEADER = 'x-client-authorization';

/** The client's own `Authorization`: the header itself unless it is CloudFront's SigV4 signature. */
function clientAuthorization(headers: APIGatewayProxyEventV2['headers'] | undefined): string | undefined {
  const auth = headers?.authorization;
  if (auth && !auth.trim().startsWith('AWS4-HMAC-SHA256')) return auth;
  return headers?.[CLIENT_AUTHORIZATION_HEADER] || undefined;
}

/** The token from `Authorization: Bearer`, else from the web client's cookie. */
export function findToken(event: APIGatewayProxyEventV2): { token: string; via: 'bearer' | 'cookie' } | null {
  const auth = clientAuthorization(event.headers);
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    return m ? { token: m[1].trim(), via: 'bearer' } : { token: '', via: 'bearer' };
  }
  const cookie = requestCookie(event, SESSION_COOKIE);
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

/**
 * Resolves the session (401), checks the role read fresh from the person's item (403), and applies
 * the Origin check to cookie-authenticated writes.
 */
export const session = (def: AnyRoute): MiddlewareObj<APIGatewayProxyEventV2> => ({
  name: 'session',
  before: async (request) => {
    const ctx = (request.internal as { ctx: RequestContext }).ctx;
    const found = findToken(request.event);
    if (def.auth === 'public') {
      // Public routes still recognise a caller when one is given, without requiring it.
      if (found?.token) ctx.callerIfSignedIn = await authenticate(found.token, { refresh: false }).catch(() => null);
      return;
    }
    if (!found?.token) throw new UnauthorizedError();
    const caller = await authenticate(found.token, { refresh: !def.anonymous });
    ctx.callerIfSignedIn = caller;
    ctx.token = found.token;
    ctx.via = found.via;
    if (found.via === 'cookie' && !SAFE_METHODS.has(def.method) && !originAllowed(request.event.headers?.origin)) {
      throw new ForbiddenError('This request must come from an allowed origin.', { code: 'INVALID_ORIGIN' });
    }
    if (def.auth === 'super_admin' && caller.role !== 'super_admin')
      throw new ForbiddenError('Only a super admin can do this.');
  },
});
