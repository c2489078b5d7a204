import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';

/**
 * A real stand-in for Lambda response streaming: `awslambda.streamifyResponse(fn)` marks the handler,
 * `awslambda.HttpResponseStream.from(stream, metadata)` sets status and headers, and every write is
 * sent to the client at once (no buffering), as a Function URL in RESPONSE_STREAM mode does.
 */
const STREAMING = Symbol.for('local.streamingHandler');

export type Metadata = { statusCode?: number; headers?: Record<string, string>; cookies?: string[] };

/** Where a response stream's bytes go: the HTTP response, or the messages of a function's worker. */
export interface ResponseSink {
  start(metadata: Metadata): void;
  write(chunk: Buffer): void;
  end(): void;
}

export class LocalResponseStream extends Writable {
  private metadata: Metadata | undefined;
  private started = false;

  constructor(private readonly sink: ResponseSink) {
    super();
  }

  setMetadata(metadata: Metadata) {
    this.metadata = metadata;
  }

  setContentType(type: string) {
    this.metadata = { ...(this.metadata ?? {}), headers: { ...(this.metadata?.headers ?? {}), 'content-type': type } };
  }

  private start() {
    if (this.started) return;
    this.started = true;
    this.sink.start(this.metadata ?? {});
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void) {
    this.start();
    this.sink.write(chunk);
    cb();
  }

  override _final(cb: (err?: Error | null) => void) {
    this.start();
    this.sink.end();
    cb();
  }
}

/** Writes a stream to the client as it comes (a Function URL in RESPONSE_STREAM mode does not buffer). */
export function httpResponseSink(res: ServerResponse): ResponseSink {
  return {
    start(m) {
      if (res.headersSent) return;
      const headers: Record<string, string | string[]> = {
        'content-type': 'application/octet-stream',
        ...(m.headers ?? {}),
      };
      if (m.cookies?.length) headers['set-cookie'] = m.cookies;
      res.socket?.setNoDelay(true);
      res.writeHead(m.statusCode ?? 200, headers);
      res.flushHeaders();
    },
    write(chunk) {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    },
    end() {
      if (!res.writableEnded) res.end();
    },
  };
}

export function installStreamingShim(): void {
  const g = globalThis as Record<string, unknown>;
  // The AWS SDK's invoke store creates `globalThis.awslambda` (for its InvokeStore) when it loads: add to
  // that object rather than skipping the shim because the name exists.
  const existing = g.awslambda as Record<string, unknown> | undefined;
  if (typeof existing?.streamifyResponse === 'function') return;
  g.awslambda = Object.assign(existing ?? {}, {
    streamifyResponse<T extends (...args: any[]) => unknown>(fn: T): T {
      (fn as unknown as Record<symbol, boolean>)[STREAMING] = true;
      return fn;
    },
    HttpResponseStream: {
      from(stream: LocalResponseStream, metadata: Metadata) {
        stream.setMetadata(metadata);
        return stream;
      },
    },
  });
}

export const isStreamingHandler = (fn: unknown): boolean => !!fn && (fn as Record<symbol, boolean>)[STREAMING] === true;
