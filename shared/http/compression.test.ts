import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, COMPRESS_FROM_BYTES, encodeBody } from './compression.ts';

describe('answer compression', () => {
  it('reads Accept-Encoding: gzip, *, and q=0 refusals', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('*, gzip;q=0')).toBe(false);
  });

  it('compresses large answers only, and only when accepted', () => {
    const small = JSON.stringify({ a: 'x'.repeat(100) });
    expect(encodeBody(small, 'gzip')).toEqual({ body: small, isBase64Encoded: false, gzip: false });
    const large = JSON.stringify(Array.from({ length: COMPRESS_FROM_BYTES / 10 }, (_, i) => ({ i })));
    expect(encodeBody(large, 'identity').gzip).toBe(false);
    const encoded = encodeBody(large, 'gzip');
    expect(encoded.gzip).toBe(true);
    expect(gunzipSync(Buffer.from(encoded.body, 'base64')).toString('utf8')).toBe(large);
  });
});
