import type { Writable } from 'node:stream';
import type { APIGatewayProxyEventV2, StreamifyHandler } from 'aws-lambda';
import type { AnyRoute } from '../api/route-def.ts';
import { authenticate, type Caller } from '../auth/sessions.ts';
import { loadSecrets } from '../config/secrets.ts';
import { DomainError } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { BadRequestError, HttpError, ServiceUnavailableError, UnauthorizedError } from './errors.ts';
import { corsHeaders } from './middlewares/cors.ts';
import { answerForError } from './middlewares/http-errors.ts';
import { findToken } from './middlewares/session.ts';
import { parseRawQuery } from './validation.ts';

/**
 * The wrapper of a response-streaming route (Lambda response streaming behind a Function URL; locally
 * the gateway's shim of `awslambda.streamifyResponse`). The middy `route()` wrapper answers one
 * buffered result, so streaming routes get this small one instead, with the same rules: the session
 * from the Bearer token or the cookie (401 with the common error body otherwise), no query parameters
 * unless declared (400), CORS headers, one access-log line. The function then writes to a sink until
 * it returns; the stream is ended for it.
 */
export interface StreamingRequest {
  event: APIGatewayProxyEventV2;
  caller: Caller;
  /** The session token (to re-check the session while the stream is open). */
  token: string;
  /** Milliseconds this invocation has left (the function's time limit). */
  remainingMs: () => number;
}

export interface ResponseSink {
  /** Writes a chunk; false when the client is gone. */
  send(chunk: string): Promise<boolean>;
  readonly closed: boolean;
  /** Settles when the client leaves. */
  readonly gone: Promise<void>;
}

type StreamingHandler = StreamifyHandler<APIGatewayProxyEventV2, void>;

/** Lambda's global (typed by @types/aws-lambda); the local gateway installs a shim of it. */
function runtime(): typeof awslambda {
  if (typeof awslambda === 'undefined')
    throw new Error('awslambda is not defined: streaming routes run in Lambda or in the local runtime (its shim)');
  return awslambda;
}

/**
 * The sink over Lambda's response stream. The status line and headers (200, `contentType`) go out
 * with the first chunk: until then the function may still refuse the request with an error answer.
 */
function sinkOver(responseStream: Writable, open: () => Writable): ResponseSink {
  let closed = false;
  let settle: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const close = () => {
    closed = true;
    settle();
  };
  responseStream.on('close', close);
  responseStream.on('error', close);
  const ended = () => closed || responseStream.destroyed || responseStream.writableEnded;
  return {
    get closed() {
      return ended();
    },
    gone,
    send(chunk) {
      if (ended()) return Promise.resolve(false);
      return new Promise((resolve) => {
        open().write(chunk, (err) => {
          if (err) close();
          resolve(!err);
        });
      });
    },
  };
}

/** Answers, before any event is sent, the same error the buffered routes would (the common body). */
function answerError(responseStream: Writable, err: unknown, origin: string | undefined): number {
  const answer = answerForError(err);
  const out = runtime().HttpResponseStream.from(responseStream, {
    statusCode: answer.statusCode,
    headers: { ...answer.headers, 'cache-control': 'no-store', ...corsHeaders(origin) },
  });
  out.end(answer.body);
  return answer.statusCode ?? 500;
}

/** A streaming route that fails before its first chunk for a reason not the client's: retry shortly. */
const UNAVAILABLE_RETRY_SECONDS = 5;

export function streamingRoute(
  def: AnyRoute,
  fn: (req: StreamingRequest, sink: ResponseSink) => Promise<void>,
  contentType = 'text/event-stream; charset=utf-8',
): StreamingHandler {
  return runtime().streamifyResponse(async (event, responseStream, context) => {
    const started = Date.now();
    const origin = event.headers?.origin;
    const logRequest = (status: number, userId?: string) =>
      logger.info('request', { route: def.name, method: def.method, status, ms: Date.now() - started, userId });
    let caller: Caller;
    let token: string;
    try {
      const query = parseRawQuery(event.rawQueryString);
      if (Object.keys(query).length > 0)
        throw new BadRequestError([`unknown query parameter: ${Object.keys(query).join(', ')}`]);
      await loadSecrets();
      const found = findToken(event);
      if (!found?.token) throw new UnauthorizedError();
      token = found.token;
      caller = await authenticate(token, { refresh: true });
    } catch (err) {
      logRequest(answerError(responseStream, err, origin));
      return;
    }
    let out: Writable | undefined;
    const open = () =>
      (out ??= runtime().HttpResponseStream.from(responseStream, {
        statusCode: def.status,
        headers: {
          'content-type': contentType,
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
          ...corsHeaders(origin),
        },
      }));
    let status: number = def.status;
    try {
      await fn(
        { event, caller, token, remainingMs: () => context.getRemainingTimeInMillis() },
        sinkOver(responseStream, open),
      );
    } catch (err) {
      if (out) {
        // Headers are gone already: end the stream; the client reconnects and resumes.
        logger.error('streaming route failed', { route: def.name, error: err as Error });
      } else {
        // Refused before the first chunk: the client's error, or overloaded / a dependency down (503).
        const refused = err instanceof HttpError || err instanceof DomainError;
        if (!refused) logger.error('streaming route failed', { route: def.name, error: err as Error });
        status = answerError(
          responseStream,
          refused
            ? err
            : new ServiceUnavailableError(
                'The live stream is unavailable right now; retry shortly.',
                UNAVAILABLE_RETRY_SECONDS,
              ),
          origin,
        );
      }
    } finally {
      if (status === def.status) {
        const stream = open();
        if (!stream.writableEnded) stream.end();
      }
      logRequest(status, caller.userId);
    }
  });
}
