import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { errorResponse } from '../../shared/http/errors.ts';
import { corsHeaders, preflightHeaders } from '../../shared/http/middlewares/cors.ts';
import { PUBLIC_PATH_PREFIX, publicPreflightHeaders } from '../../shared/http/middlewares/public-answers.ts';

/**
 * The catch-all (`$default`): every path the route table does not declare answers 404 in the common
 * body, whatever the body, content type or session (sign-up and the removed submitter route among
 * them). It also answers CORS preflights, which reach no declared route.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const origin = event.headers?.origin;
  if (event.requestContext?.http?.method === 'OPTIONS' && event.headers?.['access-control-request-method']) {
    // The public website routes admit any origin, without credentials (public-answers.ts).
    const isPublic = event.rawPath?.startsWith(PUBLIC_PATH_PREFIX);
    return { statusCode: 204, headers: isPublic ? publicPreflightHeaders() : preflightHeaders(origin), body: '' };
  }
  return errorResponse(404, 'No such route.', corsHeaders(origin));
};
