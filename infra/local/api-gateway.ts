import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type AnyRoute, handlerFile } from '../../shared/api/route-def.ts';
import { errorResponse, reasonPhrase } from '../../shared/http/errors.ts';
import { readOutbox } from '../../shared/transports/outbox.ts';
import { buildEvent, compileRoutes, isValidPathEncoding, lambdaContext, matchRoute } from './event.ts';
import { handlerModuleUrl } from './handler-module.ts';
import { installStreamingShim, isStreamingHandler, LocalResponseStream } from './streaming-shim.ts';

type Handler = (...args: any[]) => Promise<unknown>;

const MAX_BODY = 10 * 1024 * 1024; // HTTP API's payload limit
const LOCAL_ROUTE_TIMEOUT_SECONDS = 29; // HTTP API's integration timeout

/**
 * The local API Gateway (HTTP API, payload format 2.0), built from the route table: each request
 * becomes the event the deployed function receives and goes to the same handler module.
 */
export class LocalApiGateway {
  private readonly compiled;
  private readonly fallback: AnyRoute;
  private readonly handlers = new Map<string, Promise<Handler>>();
  private server: Server | undefined;

  constructor(
    private readonly root: string,
    routes: AnyRoute[],
    private readonly log: (line: string) => void,
  ) {
    installStreamingShim();
    this.compiled = compileRoutes(routes);
    const fallback = routes.find((r) => r.path === '$default');
    if (!fallback) throw new Error('the route table has no $default route');
    this.fallback = fallback;
  }

  private load(def: AnyRoute): Promise<Handler> {
    const file = handlerFile(def);
    let p = this.handlers.get(file);
    if (!p) {
      p = import(handlerModuleUrl(file, this.root)).then((m) => {
        if (typeof m.handler !== 'function') throw new Error(`${file} does not export a handler`);
        return m.handler as Handler;
      });
      this.handlers.set(file, p);
    }
    return p;
  }

  /** Loads every handler module in the background so first requests are quick. */
  async warm(routes: AnyRoute[]): Promise<void> {
    for (const r of routes) await this.load(r).catch((e) => this.log(`could not load ${handlerFile(r)}: ${e}`));
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
    // API Gateway refuses a path it cannot decode itself, before any route, authorizer or function.
    if (!isValidPathEncoding(url.pathname))
      return writeResult(res, errorResponse(400, 'The request path is not valid URL encoding.'));
    const body = await readBody(req);
    if (body === null) return writeResult(res, errorResponse(413, 'Request body too large'));
    const method = (req.method ?? 'GET').toUpperCase();
    const match = matchRoute(this.compiled, method, url.pathname);
    const def = match?.route.def ?? this.fallback;
    const event = buildEvent(req, body, match);
    const handler = await this.load(def);
    // API Gateway's own limit rather than the function's: the emulators on a shared machine are far
    // slower than AWS, and the request deadline (shared/http/deadline.ts) follows this context.
    const context = lambdaContext(def.name, (def.timeout ?? LOCAL_ROUTE_TIMEOUT_SECONDS) * 1000);
    if (isStreamingHandler(handler)) {
      const stream = new LocalResponseStream(res);
      await handler(event, stream, context);
      if (!stream.writableEnded) stream.end();
      return;
    }
    const started = Date.now();
    const result = (await handler(event, context)) as APIGatewayProxyStructuredResultV2 | undefined;
    writeResult(res, result);
    if (process.env.LOCAL_ACCESS_LOG === 'true')
      this.log(`${method} ${url.pathname} -> ${result?.statusCode} (${Date.now() - started} ms)`);
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
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
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
