import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type FunctionSettings, routeSettings } from '../../shared/api/function-settings.ts';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import { errorResponse, reasonPhrase } from '../../shared/http/errors.ts';
import { readOutbox } from '../../shared/transports/outbox.ts';
import { buildEvent, compileRoutes, isValidPathEncoding, matchRoute } from './event.ts';
import type { FunctionHost } from './function-host.ts';
import { httpResponseSink } from './streaming-shim.ts';

const MB = 1024 * 1024;
/** HTTP API's own limit on request bodies. */
const MAX_BODY = 10 * MB;
/** Lambda's limit on a synchronous invocation's request (the event) and response payloads. */
export const MAX_INVOCATION_PAYLOAD = 6 * MB;
/** HTTP API waits at most this long for its Lambda integration. */
export const INTEGRATION_TIMEOUT_MS = 30_000;

/**
 * The local API Gateway (HTTP API, payload format 2.0), built from the route table: each request
 * becomes the event the deployed function receives and goes to that route's function (in its own
 * execution environment, infra/local/function-host.ts). What API Gateway and Lambda answer on their
 * own is mirrored: 413 over the payload limits, 500 when the function fails or times out, 503 when
 * the integration times out (docs/deployment.md, "What differs between local and deployed").
 */
export class LocalApiGateway {
  private readonly compiled;
  private readonly fallback: AnyRoute;
  private readonly settings = new Map<AnyRoute, FunctionSettings>();
  private server: Server | undefined;
  private readonly integrationTimeoutMs: number;

  constructor(
    routes: AnyRoute[],
    private readonly host: FunctionHost,
    private readonly log: (line: string) => void,
    /** Tests: other functions behind the routes, a shorter integration timeout. */
    opts: { settingsOf?: (route: AnyRoute) => FunctionSettings; integrationTimeoutMs?: number } = {},
  ) {
    this.compiled = compileRoutes(routes);
    const fallback = routes.find((r) => r.path === '$default');
    if (!fallback) throw new Error('the route table has no $default route');
    this.fallback = fallback;
    for (const r of routes) this.settings.set(r, (opts.settingsOf ?? routeSettings)(r));
    this.integrationTimeoutMs = opts.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS;
  }

  listen(port: number, host = '127.0.0.1'): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        this.log(`local gateway error: ${err?.stack ?? err}`);
        if (res.headersSent) res.end();
        else writeResult(res, errorResponse(500, 'Internal Server Error'));
      });
    });
    this.server.on('clientError', answerClientError);
    this.server.keepAliveTimeout = 65_000;
    this.server.requestTimeout = 0; // streams stay open
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/_local/outbox' && req.method === 'GET') return this.outbox(url, res);
    if (url.pathname === '/_local/settled' && req.method === 'GET') return this.settled(url, res);
    // API Gateway refuses a path it cannot decode itself, before any route, authorizer or function.
    if (!isValidPathEncoding(url.pathname))
      return writeResult(res, errorResponse(400, 'The request path is not valid URL encoding.'));
    const body = await readBody(req);
    if (body === null) return writeResult(res, errorResponse(413, 'Request body too large'));
    const method = (req.method ?? 'GET').toUpperCase();
    const match = matchRoute(this.compiled, method, url.pathname);
    const def = match?.route.def ?? this.fallback;
    const fn = this.settings.get(def)!;
    const event = buildEvent(req, body, match);
    // Lambda refuses an invocation whose event is over its payload limit (base64 bodies grow by a
    // third); API Gateway answers 413 without invoking the function.
    if (Buffer.byteLength(JSON.stringify(event)) > MAX_INVOCATION_PAYLOAD)
      return writeResult(res, errorResponse(413, 'Request body too large'));
    const started = Date.now();
    if (def.streaming) return this.stream(fn, event, res);

    // HTTP API gives up on its integration after 30 s (counted here from the invocation's start,
    // not from a local cold start, which compiles TypeScript and is much slower than Lambda's).
    let integrationTimer: NodeJS.Timeout | undefined;
    let onStart: () => void = () => undefined;
    const integrationTimeout = new Promise<'integration-timeout'>((resolve) => {
      onStart = () => {
        integrationTimer = setTimeout(() => resolve('integration-timeout'), this.integrationTimeoutMs);
      };
    });
    const outcome = await Promise.race([this.host.invoke(fn, event, { onStart }), integrationTimeout]);
    clearTimeout(integrationTimer);
    if (outcome === 'integration-timeout') return sendJson(res, 503, { message: 'Service Unavailable' });
    if (outcome.status === 'ok') {
      const result = outcome.result as APIGatewayProxyStructuredResultV2 | undefined;
      if (Buffer.byteLength(JSON.stringify(result ?? null)) > MAX_INVOCATION_PAYLOAD) {
        this.log(`${fn.name}: response over Lambda's ${MAX_INVOCATION_PAYLOAD}-byte payload limit`);
        return sendJson(res, 500, { message: 'Internal Server Error' });
      }
      writeResult(res, result);
    } else {
      // A function error or a function timeout: HTTP API answers its own 500.
      if (outcome.status === 'error') this.log(`${fn.name}: ${outcome.error.stack ?? outcome.error.message}`);
      sendJson(res, 500, { message: 'Internal Server Error' });
    }
    if (process.env.LOCAL_ACCESS_LOG === 'true')
      this.log(`${method} ${url.pathname} -> ${res.statusCode} (${Date.now() - started} ms)`);
  }

  /**
   * A streaming route (a Function URL in RESPONSE_STREAM mode): frames reach the client as written.
   * When the client goes away the invocation goes on, as Lambda's does (a streamed invocation is not
   * stopped when the invoking connection breaks, and the handler is told nothing): its writes go
   * nowhere until it ends by itself, so tests and the bench see the orphans production has.
   */
  private async stream(fn: FunctionSettings, event: unknown, res: ServerResponse): Promise<void> {
    const outcome = await this.host.invoke(fn, event, { sink: httpResponseSink(res) });
    if (outcome.status === 'error') this.log(`${fn.name}: ${outcome.error.stack ?? outcome.error.message}`);
    if (!res.headersSent && outcome.status !== 'ok') return sendJson(res, 502, { message: 'Internal Server Error' });
    if (!res.writableEnded) res.end();
  }

  /** What `/_local/settled` waits on: the runtime's stream poller, once it runs. */
  settledBy?: (timeoutMs: number) => Promise<boolean>;

  /**
   * `GET /_local/settled?timeoutMs=`: answers 204 once the change feed has delivered everything written
   * before the request (and what that wrote), 503 when it has not within the time (default 30 s); 204
   * at once without a stream poller. A local hook for tests, like the outbox: no deployed counterpart.
   */
  private async settled(url: URL, res: ServerResponse) {
    const timeoutMs = Number(url.searchParams.get('timeoutMs')) || 30_000;
    const ok = this.settledBy ? await this.settledBy(timeoutMs) : true;
    if (ok) res.writeHead(204).end();
    else sendJson(res, 503, { message: 'The change feed did not settle in time.' });
  }

  private outbox(url: URL, res: ServerResponse) {
    const to = url.searchParams.get('to') ?? undefined;
    const channel = url.searchParams.get('channel') ?? undefined;
    sendJson(res, 200, readOutbox({ to, channel }));
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Requests Node's HTTP parser refuses before there is a request (headers over its 16 KB limit,
 * malformed request lines) would get a bare status line; they get the common error body instead.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const answer = errorResponse(status, status === 431 ? 'The request headers are too large.' : 'Malformed request.');
  const body = answer.body ?? '';
  socket.end(
    `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function sendJson(res: ServerResponse, status: number, value: unknown) {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Writes a payload-2.0 result as API Gateway would (cookies become Set-Cookie headers). */
function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2 | undefined) {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result?.headers ?? {})) headers[k.toLowerCase()] = String(v);
  if (result?.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result?.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  headers['content-length'] = String(body.length);
  res.writeHead(result?.statusCode ?? 200, headers);
  res.end(body);
}
