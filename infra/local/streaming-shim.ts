import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';

/**
 * A real stand-in for Lambda response streaming: `awslambda.streamifyResponse(fn)` marks the handler,
 * `awslambda.HttpResponseStream.from(stream, metadata)` sets status and headers, and every write is
 * sent to the client at once (no buffering), as a Function URL in RESPONSE_STREAM mode does.
 */
const STREAMING = Symbol.for('local.streamingHandler');

type Metadata = { statusCode?: number; headers?: Record<string, string>; cookies?: string[] };

export class LocalResponseStream extends Writable {
  private metadata: Metadata | undefined;
  private started = false;

  constructor(private readonly res: ServerResponse) {
    super();
    res.on('close', () => {
      // The client left: the handler sees its stream end, as in Lambda.
      if (!this.destroyed) this.destroy();
    });
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
    const m = this.metadata ?? {};
    const headers: Record<string, string | string[]> = {
      'content-type': 'application/octet-stream',
      ...(m.headers ?? {}),
    };
    if (m.cookies?.length) headers['set-cookie'] = m.cookies;
    this.res.socket?.setNoDelay(true);
    this.res.writeHead(m.statusCode ?? 200, headers);
    this.res.flushHeaders();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void) {
    this.start();
    if (this.res.writableEnded || this.res.destroyed) return cb();
    this.res.write(chunk, cb);
  }

  override _final(cb: (err?: Error | null) => void) {
    this.start();
    this.res.end(cb);
  }
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
