import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { clientAuthorizationFunctionCode, pathPattern } from '../../infra/stacks/edge-stack.ts';
import { SESSION_COOKIE } from '../../shared/http/cookies.ts';
import { CLIENT_AUTHORIZATION_HEADER, findToken } from '../../shared/http/middlewares/session.ts';

/**
 * The stream's path through CloudFront: the viewer-request CloudFront Function copies the client's
 * `Authorization` into `x-client-authorization`, origin access control then replaces `Authorization`
 * with its SigV4 signature, and the service finds the bearer token in the copy. No synthesis here.
 */
type CfHeaders = Record<string, { value: string }>;

/** Runs the CloudFront Function's code (cloudfront-js-2.0 is plain ES5-style JavaScript here). */
const viewerRequest = (headers: CfHeaders): CfHeaders => {
  const handler = new Function(`${clientAuthorizationFunctionCode}\nreturn handler;`)() as (e: unknown) => {
    headers: CfHeaders;
  };
  return handler({ request: { method: 'GET', uri: '/api/v1/realtime/stream', headers } }).headers;
};

/** What origin access control does next: sign, overwriting Authorization. */
const signed = (headers: CfHeaders): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.value])),
  authorization:
    'AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20260101/eu-west-1/lambda/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc',
});

const event = (headers: Record<string, string>, cookies?: string[]) =>
  ({ headers, cookies }) as unknown as APIGatewayProxyEventV2;

describe('client authorization through CloudFront', () => {
  it('carries the bearer token past the SigV4 signature', () => {
    const headers = viewerRequest({ authorization: { value: 'Bearer tok-123' }, host: { value: 'x' } });
    expect(headers[CLIENT_AUTHORIZATION_HEADER]).toEqual({ value: 'Bearer tok-123' });
    expect(findToken(event(signed(headers)))).toEqual({ token: 'tok-123', via: 'bearer' });
  });

  it('leaves cookie sign-in (EventSource) to the cookie when the client sent no Authorization', () => {
    const headers = viewerRequest({ cookie: { value: 'x=y' } });
    expect(headers[CLIENT_AUTHORIZATION_HEADER]).toBeUndefined();
    // CloudFront's signature is never taken for a bearer token: the session cookie is used.
    expect(findToken(event(signed(headers), [`${SESSION_COOKIE}=cookie-tok`]))).toEqual({
      token: 'cookie-tok',
      via: 'cookie',
    });
    expect(findToken(event(signed(headers)))).toBeNull();
  });

  it('keeps the direct Authorization header first (the HTTP API and the local runtime)', () => {
    expect(
      findToken(event({ authorization: 'Bearer direct', [CLIENT_AUTHORIZATION_HEADER]: 'Bearer copied' })),
    ).toEqual({ token: 'direct', via: 'bearer' });
    expect(findToken(event({ authorization: 'Basic abc' }))).toEqual({ token: '', via: 'bearer' });
    expect(findToken(event({}))).toBeNull();
  });

  it('maps route parameters to CloudFront path patterns', () => {
    expect(pathPattern('/api/v1/realtime/stream')).toBe('/api/v1/realtime/stream');
    expect(pathPattern('/api/v1/things/{id}/stream')).toBe('/api/v1/things/*/stream');
  });
});
