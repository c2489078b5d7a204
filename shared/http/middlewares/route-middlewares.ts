import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
import { loadSecrets } from '../../config/secrets.ts';
import type { parseMultipart } from '../multipart.ts';
import { accessLog } from './access-log.ts';
import { cors } from './cors.ts';
import { httpErrors } from './http-errors.ts';
import { publicAnswers } from './public-answers.ts';
import { requestContext } from './request-context.ts';
import { requestParser } from './request-parser.ts';
import { session } from './session.ts';
import { signInPage } from './sign-in-page.ts';

/** Deployed: the secrets this function is granted, fetched on first use and cached (shared/config/secrets.ts). */
const secrets = (): MiddlewareObj => ({ name: 'secrets', before: () => loadSecrets() });

/**
 * The middlewares of every route, buffered or streaming, in order: the request context, the access
 * log and CORS — or, on the cacheable public routes, their caching and any-origin CORS — (their
 * `after`/`onError` run last, so they see the final answer, errors included), the sign-in page of a
 * browser without a session where a route has one, the error answers, secrets, session and role, then
 * query and body validation.
 */
export const routeMiddlewares = (
  def: AnyRoute,
  options: { parseMultipart?: typeof parseMultipart; signInPage?: () => string } = {},
) =>
  [
    requestContext(),
    accessLog(def),
    def.cache ? publicAnswers(def.cache) : cors(),
    ...(options.signInPage ? [signInPage(options.signInPage)] : []),
    httpErrors(def),
    secrets(),
    session(def),
    requestParser(def, options.parseMultipart),
  ] as MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>[];
