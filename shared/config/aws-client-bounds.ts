/**
 * Bounds for the table's and the bucket's SDK clients. Without them the SDK waits on a connection or
 * an answer indefinitely and retries up to its default: a slow or unreachable dependency would hold
 * the function until its own time limit, and API Gateway would answer for it. With them each call
 * fails within seconds (the wrapper answers 503 with Retry-After); the request's deadline
 * (shared/http/deadline.ts) still catches a request that makes many slow calls.
 */
export function awsClientBounds(requestTimeoutMs: number) {
  return {
    // The first try and two retries (with the SDK's backoff, longer for throttling).
    maxAttempts: 3,
    requestHandler: {
      // Within a region a connection takes milliseconds; a second means the endpoint is unreachable.
      connectionTimeout: 1_000,
      requestTimeout: requestTimeoutMs,
      // Without this the SDK only logs a warning when requestTimeout passes, and keeps waiting.
      throwOnRequestTimeout: true,
    },
  };
}
