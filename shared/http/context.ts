import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Caller } from '../access/caller.ts';
import { UnauthorizedError } from './errors.ts';
import type { UploadedFile } from './multipart.ts';

/** What the wrapper hands a route's function after parsing, authentication and validation. */
export interface RequestContext<Q = any, B = any> {
  event: APIGatewayProxyEventV2;
  params: Record<string, string>;
  query: Q;
  body: B;
  files: UploadedFile[];
  headers: Record<string, string | undefined>;
  /** How the session came: the bearer header, the web cookie, or none (public routes). */
  via: 'bearer' | 'cookie' | null;
  token: string | null;
  callerIfSignedIn: Caller | null;
  /** The signed-in caller; only public routes can reach a handler without one. */
  readonly caller: Caller;
  userAgent: string | null;
  /** When the request arrived (epoch ms): API Gateway's receipt time, earlier than the handler's start. */
  receivedAt: number;
  /** Whether the client reached us over https (sets Secure on cookies). */
  secure: boolean;
}

export function newContext(event: APIGatewayProxyEventV2): RequestContext {
  const headers = event.headers ?? {};
  return {
    event,
    params: (event.pathParameters ?? {}) as Record<string, string>,
    query: {},
    body: undefined,
    files: [],
    headers,
    via: null,
    token: null,
    callerIfSignedIn: null,
    get caller() {
      if (!this.callerIfSignedIn) throw new UnauthorizedError();
      return this.callerIfSignedIn;
    },
    userAgent: headers['user-agent'] ?? null,
    receivedAt: event.requestContext?.timeEpoch ?? Date.now(),
    secure: (headers['x-forwarded-proto'] ?? 'https') === 'https',
  };
}
