import { PassThrough, type Writable } from 'node:stream';
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import type { APIGatewayProxyEventV2, Context, StreamifyHandler } from 'aws-lambda';
import type { Caller } from '../access/caller.ts';
import type { AnyRoute } from '../api/route-def.ts';
import { DomainError } from '../errors.ts';
import { instrument } from '../observability/instrumented.ts';
import { logger } from '../observability/logger.ts';
import type { RequestContext } from './context.ts';
import { HttpError, ServiceUnavailableError } from './errors.ts';
import { routeMiddlewares } from './middlewares/route-middlewares.ts';

/**
 * The wrapper of a response-streaming route (Lambda response streaming behind a Function URL; locally
 * the gateway's shim of `awslambda.streamifyResponse`): middy in its streaming execution mode with the
 * very middlewares of the buffered routes (session, strict query, CORS, error bodies, access log). The
 * function writes to a sink until it returns; the stream is ended for it. Until its first chunk it may
 * still refuse the request: the refusal is answered like any route's error.
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

/** The sink over the answer's body, which middy pipes into Lambda's response stream. */
function sinkOver(body: PassThrough, onFirstChunk: () => void): ResponseSink {
  let closed = false;
  let settle: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const close = () => {
    closed = true;
    settle();
  };
  // The client leaving ends the pipeline, which destroys the body.
  body.on('close', close);
  body.on('error', close);
  const ended = () => closed || body.destroyed || body.writableEnded;
  return {
    get closed() {
      return ended();
    },
    gone,
    send(chunk) {
      if (ended()) return Promise.resolve(false);
      onFirstChunk();
      return new Promise((resolve) => {
        if (body.write(chunk)) return resolve(!ended());
        // Backpressure: the client reads slowly; wait until it drains (or leaves).
        const done = () => {
          body.off('drain', done);
          body.off('close', done);
          resolve(!ended());
        };
        body.on('drain', done);
        body.on('close', done);
      });
    },
  };
}

/** A streaming route that fails before its first chunk for a reason not the client's: retry shortly. */
const UNAVAILABLE_RETRY_SECONDS = 5;

const isRefusal = (err: unknown) => err instanceof DomainError || err instanceof HttpError;

type StreamingHandler = StreamifyHandler<APIGatewayProxyEventV2, void>;
type StreamingAnswer = { statusCode: number; headers: Record<string, string>; body: PassThrough };

export function streamingRoute(
  def: AnyRoute,
  fn: (req: StreamingRequest, sink: ResponseSink) => Promise<void>,
  contentType = 'text/event-stream; charset=utf-8',
): StreamingHandler {
  const base = (_event: APIGatewayProxyEventV2, context: Context): Promise<StreamingAnswer> => {
    const ctx = (context as unknown as { ctx: RequestContext }).ctx;
    const body = new PassThrough();
    const answer: StreamingAnswer = {
      statusCode: def.status,
      headers: { 'content-type': contentType, 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      body,
    };
    return new Promise((resolve, reject) => {
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        resolve(answer);
      };
      const req: StreamingRequest = {
        event: ctx.event,
        caller: ctx.caller,
        token: ctx.token ?? '',
        remainingMs: () => context.getRemainingTimeInMillis(),
      };
      fn(req, sinkOver(body, start)).then(
        () => {
          start();
          body.end();
        },
        (err) => {
          if (started) {
            // Headers are gone already: end the stream; the client reconnects and resumes.
            logger.error('streaming route failed', { route: def.name, error: err as Error });
            body.end();
            return;
          }
          // Refused before the first chunk: the client's error, or overloaded / a dependency down (503).
          if (isRefusal(err)) return reject(err);
          logger.error('streaming route failed', { route: def.name, error: err as Error });
          reject(
            new ServiceUnavailableError(
              'The live stream is unavailable right now; retry shortly.',
              UNAVAILABLE_RETRY_SECONDS,
              {
                cause: err,
              },
            ),
          );
        },
      );
    });
  };
  const handler = instrument(
    middy<APIGatewayProxyEventV2, StreamingAnswer>(base, {
      timeoutEarlyInMillis: 0,
      executionMode: executionModeStreamifyResponse,
    }),
    def.area,
  ).use(routeMiddlewares(def) as never) as unknown as StreamingHandler;
  return clientLeavingIsNoFailure(handler);
}

/** Lambda's global (typed by @types/aws-lambda); the local gateway installs a shim of it. */
function runtime(): typeof awslambda {
  if (typeof awslambda === 'undefined')
    throw new Error('awslambda is not defined: streaming routes run in Lambda or in the local runtime (its shim)');
  return awslambda;
}

/**
 * middy pipes the body into the response stream, and the pipe fails when the client leaves: that
 * ends a live stream normally, so it is not the invocation's failure.
 */
function clientLeavingIsNoFailure(handler: StreamingHandler): StreamingHandler {
  return runtime().streamifyResponse(async (event, responseStream: Writable, context) => {
    try {
      await handler(event, responseStream as never, context);
    } catch (err) {
      if (!responseStream.destroyed && !responseStream.writableFinished) throw err;
    }
  });
}
