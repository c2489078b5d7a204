/**
 * A counting proxy in front of DynamoDB Local: every function worker of a local runtime (and this
 * process) that is pointed at it is metered, whatever client it made. It counts read calls (GetItem,
 * BatchGetItem, Query, Scan, TransactGetItems) and the bytes DynamoDB answered to them, the stream's own
 * calls apart: what one request made DynamoDB read, measured from outside the code under test.
 */
import { createServer, request, type Server } from 'node:http';

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

export interface Reading {
  calls: number;
  bytes: number;
}

export class DynamoMeterProxy {
  private server: Server | undefined;
  private reading: Reading = { calls: 0, bytes: 0 };
  /** When the proxy last forwarded anything but a stream poll (the runtime is busy until it goes quiet). */
  lastActivity = Date.now();
  endpoint = '';

  constructor(private readonly target: string) {}

  async start(port: number): Promise<void> {
    const target = new URL(this.target);
    this.server = createServer((req, res) => {
      const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const streamCall = String(req.headers['x-amz-target'] ?? '').startsWith('DynamoDBStreams');
      if (!streamCall) this.lastActivity = Date.now();
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          let bytes = 0;
          up.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            res.write(chunk);
          });
          up.on('end', () => {
            if (READS.has(op) && !streamCall) {
              this.reading.calls++;
              this.reading.bytes += bytes;
            }
            if (!streamCall) this.lastActivity = Date.now();
            res.end();
          });
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.endpoint = `http://127.0.0.1:${port}`;
  }

  /** Starts a new reading; `take` answers what was read since. */
  reset(): void {
    this.reading = { calls: 0, bytes: 0 };
  }

  take(): Reading {
    return { ...this.reading };
  }

  /** Waits until nothing but stream polls went through for `quietMs` (background work done), at most `maxMs`. */
  async quiet(quietMs = 1500, maxMs = 120_000): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() - this.lastActivity < quietMs && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
