import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
import { loadSecrets } from '../../config/secrets.ts';
import type { parseMultipart } from '../multipart.ts';
import { accessLog } from './access-log.ts';
import { cors } from './cors.ts';
import { httpErrors } from './http-errors.ts';
import { requestContext } from './request-context.ts';
import { requestParser } from './request-parser.ts';
import { session } from './session.ts';

/** Deployed: the secrets this function is granted, fetched on first use and cached (shared/config/secrets.ts). */
const secrets = (): MiddlewareObj => ({ name: 'secrets', before: () => loadSecrets() });

/**
 * The middlewares of every route, buffered or streaming, in order: the request context, the access
 * log and CORS (their `after`/`onError` run last, so they see the final answer, errors included), the
 * error answers, secrets, session and role, then query and body validation.
 */
export const routeMiddlewares = (def: AnyRoute, multipart?: typeof parseMultipart) =>
  [
    requestContext(),
    accessLog(def),
    cors(),
    httpErrors(def),
    secrets(),
    session(def),
    requestParser(def, multipart),
  ] as MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>[];
