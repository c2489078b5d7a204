import { env } from './env.ts';

/**
 * Bounds for the table's and the bucket's SDK clients. Without them the SDK waits on a connection or
 * an answer indefinitely: a slow or unreachable dependency would hold the function until its own time
 * limit, and API Gateway would answer for it. With them each call fails within seconds (the wrapper
 * answers 503 with Retry-After); the request's deadline (shared/http/deadline.ts) still catches a
 * request that makes many slow calls.
 */
export function awsClientBounds(requestTimeoutMs: number) {
  // The local runtime's emulators (DynamoDB Local, s3rver) share a developer's or CI machine with
  // everything else and answer far slower than AWS under load: bounds fit for AWS would fail there.
  const slack = env.runtime === 'local' ? 5 : 1;
  return {
    // The first try and two retries (with the SDK's backoff, longer for throttling).
    maxAttempts: 3,
    requestHandler: {
      // Within a region a connection takes milliseconds; a second means the endpoint is unreachable.
      connectionTimeout: 1_000 * slack,
      requestTimeout: requestTimeoutMs * slack,
      // Without this the SDK only logs a warning when requestTimeout passes, and keeps waiting.
      throwOnRequestTimeout: true,
    },
  };
}
