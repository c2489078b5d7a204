/**
 * A request-counting layer in front of DynamoDB Local, for the live stream's scale bench: an HTTP
 * proxy that every DynamoDB request of the local runtime goes through (its address is set as
 * `AWS_ENDPOINT_URL_DYNAMODB`). It asks DynamoDB for the consumed capacity of every read and books
 * it to the partition key read: GetItem by its key, Query by the partition key of its key condition
 * (per index), BatchGetItem per key in proportion to the size of each item returned. DynamoDB
 * Streams requests (the change feed's poller) pass through uncounted: deployed they cost no table
 * reads.
 */
import { createServer, request, type Server } from 'node:http';

type Av = Record<string, any>;

/** DynamoDB's item size: attribute names plus values (strings in UTF-8, numbers ~1 byte per 2 digits). */
function valueSize(v: Av): number {
  if (v.S !== undefined) return Buffer.byteLength(v.S);
  if (v.N !== undefined) return Math.ceil(String(v.N).replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
  if (v.B !== undefined) return Buffer.from(v.B, 'base64').length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.M) return 3 + itemSize(v.M);
  if (v.L) return 3 + v.L.reduce((n: number, x: Av) => n + 1 + valueSize(x), 0);
  if (v.SS) return v.SS.reduce((n: number, s: string) => n + Buffer.byteLength(s), 0);
  if (v.NS) return v.NS.length * 8;
  return 0;
}
const itemSize = (item: Av): number =>
  Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k) + valueSize(v as Av), 0);
/** Read units for `bytes` read in one request: 4 KB units, half for eventually consistent reads. */
const readUnits = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);

/** The partition key a Query reads: `<index or table>:<value of the key condition's partition key>`. */
function queryKey(body: Av): string {
  const names: Record<string, string> = body.ExpressionAttributeNames ?? {};
  const values: Record<string, Av> = body.ExpressionAttributeValues ?? {};
  const pkName = body.IndexName ? `${body.IndexName}pk` : 'pk';
  for (const m of String(body.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const name = names[m[1]] ?? m[1];
    if (name === pkName) return `${body.IndexName ?? 'table'}:${Object.values(values[m[2]] ?? {})[0]}`;
  }
  return `${body.IndexName ?? 'table'}:?`;
}

export class ReadCounter {
  private server: Server | undefined;
  /** Read capacity booked per partition key since the last reset. */
  rcu = new Map<string, number>();
  /** Table requests (not DynamoDB Streams) since the last reset. */
  requests = 0;
  writes = 0;

  constructor(private readonly target: string) {}

  reset() {
    this.rcu = new Map();
    this.requests = 0;
    this.writes = 0;
  }

  private book(key: string, units: number) {
    this.rcu.set(key, (this.rcu.get(key) ?? 0) + units);
  }

  /** Starts the proxy on `port`; answers its address. */
  async listen(port: number): Promise<string> {
    const target = new URL(this.target);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const op = String(req.headers['x-amz-target'] ?? '');
        const isTable = op.startsWith('DynamoDB_20120810.');
        const action = op.split('.')[1] ?? '';
        let body = Buffer.concat(chunks);
        let parsed: Av | undefined;
        const isRead = isTable && ['GetItem', 'Query', 'BatchGetItem', 'Scan'].includes(action);
        if (isTable) {
          this.requests++;
          if (/Put|Update|Delete|BatchWrite|TransactWrite/.test(action)) this.writes++;
        }
        if (isRead) {
          parsed = JSON.parse(body.toString('utf8'));
          parsed!.ReturnConsumedCapacity = 'TOTAL';
          body = Buffer.from(JSON.stringify(parsed));
        }
        const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
        const upstream = request(
          { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
          (up) => {
            const out: Buffer[] = [];
            up.on('data', (c) => out.push(c));
            up.on('end', () => {
              const answer = Buffer.concat(out);
              if (isRead && up.statusCode === 200) this.count(action, parsed!, JSON.parse(answer.toString('utf8')));
              res.writeHead(up.statusCode ?? 500, up.headers);
              res.end(answer);
            });
          },
        );
        upstream.on('error', (err) => {
          res.writeHead(502);
          res.end(String(err));
        });
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${port}`;
  }

  /** Books one read: DynamoDB's reported capacity when it gives one, else computed from the item sizes. */
  private count(action: string, req: Av, res: Av) {
    const reported = [res.ConsumedCapacity]
      .flat()
      .reduce((n: number, c: Av | undefined) => n + (c?.CapacityUnits ?? 0), 0);
    if (action === 'GetItem') {
      const key = `table:${Object.values(req.Key?.pk ?? {})[0]}`;
      this.book(key, reported || readUnits(res.Item ? itemSize(res.Item) : 0, !!req.ConsistentRead));
    } else if (action === 'Query') {
      const bytes = (res.Items ?? []).reduce((n: number, i: Av) => n + itemSize(i), 0);
      this.book(queryKey(req), reported || readUnits(bytes, !!req.ConsistentRead));
    } else if (action === 'BatchGetItem') {
      const shares: [string, number][] = [];
      for (const [table, spec] of Object.entries<Av>(req.RequestItems ?? {})) {
        const found = new Map<string, Av>(
          (res.Responses?.[table] ?? []).map((i: Av) => [`${i.pk?.S}|${i.sk?.S}`, i] as [string, Av]),
        );
        for (const k of spec.Keys ?? []) {
          const item = found.get(`${k.pk?.S}|${k.sk?.S}`);
          shares.push([`table:${k.pk?.S}`, readUnits(item ? itemSize(item) : 0, !!spec.ConsistentRead)]);
        }
      }
      const computed = shares.reduce((n, [, u]) => n + u, 0);
      for (const [key, units] of shares) this.book(key, reported && computed ? (units * reported) / computed : units);
    } else {
      this.book('SCAN', reported);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
