import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * What S3 checks before it answers a presigned URL, which the S3 emulator (s3rver) does not: it
 * accepts unsigned, tampered and expired URLs, and lists the bucket to anyone. This gate sits in
 * front of it on the endpoint the service and its clients use (`AWS_ENDPOINT_URL_S3`):
 *
 * - a request with a query-string signature (`X-Amz-Signature`, what `getSignedUrl` makes) is
 *   recomputed with the SDK's own signer (`@smithy/signature-v4`) from the same credentials and
 *   compared; a mismatch is `403 SignatureDoesNotMatch`, a URL past `X-Amz-Date + X-Amz-Expires` is
 *   `403 AccessDenied` "Request has expired", as S3 answers;
 * - a request with an `Authorization` header (the service's own SDK calls) passes: the header form
 *   is what the SDK signs itself with the local credentials (docs/deployment.md, local versus
 *   deployed);
 * - anything else (an unsigned GET, a bucket listing) is `403 AccessDenied`, except CORS preflights.
 *
 * It also checks the one copy condition the service uses, which the emulator ignores: a copy with
 * `x-amz-copy-source-if-match` whose source's ETag is another is `412 PreconditionFailed`, as S3
 * answers (shared/feed/uploads.ts). Locally the check and the copy are two requests, not one atomic
 * step as in S3 (docs/deployment.md, local versus deployed).
 *
 * Presigned reads answer with CORS for any origin, as the deployed bucket's CORS rule for GET and
 * HEAD does (infra/stacks/data-stack.ts), so a website's scripts may use the media.
 */
export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The SHA-256 the signer wants (a `Checksum`), from node:crypto: HMAC with a secret, else a hash. */
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData) =>
  typeof data === 'string'
    ? Buffer.from(data)
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

class NodeSha256 {
  private hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: SourceData) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {}
}

export type Verdict =
  | { ok: true }
  | { ok: false; code: 'AccessDenied' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch'; message: string };

const denied = (message: string): Verdict => ({ ok: false, code: 'AccessDenied', message });

/** `20260302T100000Z` → a Date (SigV4's basic ISO 8601), or null. */
function amzDate(value: string | null): Date | null {
  const m = value && /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : null;
}

/** Checks a presigned URL as S3 does: the signature over method, path, query and signed headers, and the expiry. */
export async function verifyPresigned(
  method: string,
  rawUrl: string,
  headers: Record<string, string | string[] | undefined>,
  credentials: SigningCredentials,
  now = Date.now(),
): Promise<Verdict> {
  const url = new URL(rawUrl, `http://${headers.host ?? 'localhost'}`);
  const q = url.searchParams;
  const given = q.get('X-Amz-Signature');
  const signedAt = amzDate(q.get('X-Amz-Date'));
  const expires = Number(q.get('X-Amz-Expires'));
  const scope = (q.get('X-Amz-Credential') ?? '').split('/');
  if (
    !given ||
    !signedAt ||
    !Number.isInteger(expires) ||
    scope.length !== 5 ||
    q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256'
  )
    return denied(
      'Query-string authentication requires the X-Amz-Algorithm, -Credential, -Date, -Expires and -Signature parameters.',
    );
  if (scope[0] !== credentials.accessKeyId)
    return {
      ok: false,
      code: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
    };
  if (now > signedAt.getTime() + expires * 1000) return denied('Request has expired');

  const query: Record<string, string> = {};
  for (const [k, v] of q) if (k !== 'X-Amz-Signature') query[k] = v;
  const signedHeaders: Record<string, string> = {};
  for (const name of (q.get('X-Amz-SignedHeaders') ?? 'host').split(';')) {
    const value = headers[name];
    if (value !== undefined) signedHeaders[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // The payload hash travels as a query parameter; the signer reads it from the headers
  // (the signer hoists it back into the query under the same name).
  const payloadHash = Object.keys(query).find((k) => k.toLowerCase() === 'x-amz-content-sha256');
  if (payloadHash) {
    signedHeaders[payloadHash] = query[payloadHash];
    delete query[payloadHash];
  }
  const signer = new SignatureV4({
    service: scope[3],
    region: scope[2],
    credentials: { ...credentials, sessionToken: q.get('X-Amz-Security-Token') ?? undefined },
    sha256: NodeSha256,
    uriEscapePath: false, // S3 signs the path as sent
    applyChecksum: false,
  });
  const presigned = await signer.presign(
    {
      method,
      protocol: 'http:',
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query,
      headers: signedHeaders,
    },
    { signingDate: signedAt, expiresIn: expires },
  );
  const expected = Buffer.from(String(presigned.query?.['X-Amz-Signature'] ?? ''));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return {
      ok: false,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    };
  }
  return { ok: true };
}

/** S3's error document. */
export function s3ErrorXml(code: string, message: string): string {
  const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlText(message)}</Message></Error>`;
}

const PUBLIC_READ_CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'content-length,content-range,etag',
};

/** Starts the gate on `port`, forwarding what passes to the emulator at `target`. */
export async function startSignatureGate(
  port: number,
  target: { host: string; port: number },
  credentials: SigningCredentials,
): Promise<{ stop: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void gate(req, res, target, credentials).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/xml' });
      res.end(s3ErrorXml('InternalError', String(err?.message ?? err)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function gate(
  req: IncomingMessage,
  res: ServerResponse,
  target: { host: string; port: number },
  credentials: SigningCredentials,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const presigned = /[?&]X-Amz-Signature=/.test(req.url ?? '');
  const preflight = method === 'OPTIONS' && !!req.headers['access-control-request-method'];
  if (!preflight && !req.headers.authorization) {
    const verdict = presigned
      ? await verifyPresigned(method, req.url ?? '/', req.headers, credentials)
      : denied('Access Denied');
    if (!verdict.ok) {
      req.resume();
      const body = s3ErrorXml(verdict.code, verdict.message);
      res.writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
  }
  const copyIfMatch = req.headers['x-amz-copy-source-if-match'];
  if (method === 'PUT' && req.headers['x-amz-copy-source'] && typeof copyIfMatch === 'string') {
    const source = String(req.headers['x-amz-copy-source']);
    const current = await etagOf(target, source.startsWith('/') ? source : `/${source}`);
    if (current !== null && current !== copyIfMatch) {
      req.resume();
      const body = s3ErrorXml('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      res.writeHead(412, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
  }
  const upstream = request(
    { host: target.host, port: target.port, method, path: req.url, headers: req.headers },
    (answer) => {
      const headers = { ...answer.headers };
      if (presigned && (method === 'GET' || method === 'HEAD') && req.headers.origin)
        Object.assign(headers, PUBLIC_READ_CORS);
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/xml' });
    res.end(s3ErrorXml('ServiceUnavailable', err.message));
  });
  req.pipe(upstream);
}

/** The ETag of the emulator's object at `path` (`/bucket/key`, as S3 names a copy source), or null when there is none. */
function etagOf(target: { host: string; port: number }, path: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const head = request({ host: target.host, port: target.port, method: 'HEAD', path }, (answer) => {
      answer.resume();
      const etag = answer.headers.etag;
      resolve(answer.statusCode === 200 && typeof etag === 'string' ? etag : null);
    });
    head.on('error', reject);
    head.end();
  });
}
