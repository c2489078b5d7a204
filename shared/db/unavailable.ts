import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';

/**
 * Whether a failure of an AWS SDK call means "a dependency (the table, the bucket) is unavailable, throttling or too
 * slow right now" rather than a bug: such failures answer 503 with `Retry-After`, so clients and
 * CloudFront retry, while 500 stays for bugs. The names and codes are the AWS SDK's own
 * classification (the one its retry strategy uses): throttling (ThrottlingException,
 * ProvisionedThroughputExceededException, RequestLimitExceeded, SlowDown, HTTP 429, `$retryable`
 * throttling), transient failures (TimeoutError, RequestTimeout, ECONNREFUSED, ECONNRESET, EPIPE,
 * ETIMEDOUT, ENOTFOUND, EAI_AGAIN, HTTP 500/502/503/504) and any other 5xx of the service.
 */
export const RETRY_AFTER_SECONDS = 2;
export const UNAVAILABLE_MESSAGE = 'The service is busy or briefly unavailable; try again in a moment.';

/**
 * A cancelled DynamoDB transaction reports why per item; these reasons are capacity or contention,
 * not the request (a failed condition or a validation error are the request's, and stay as they are).
 */
const RETRYABLE_CANCELLATIONS = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
  'TransactionConflict',
]);

interface SdkErrorLike {
  name?: string;
  cause?: unknown;
  CancellationReasons?: { Code?: string }[];
}

export function isDependencyUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as SdkErrorLike;
  // The SDK's predicates read `name`, `code`, `$metadata` and `$retryable` of whatever they are given.
  const sdk = e as Parameters<typeof isThrottlingError>[0];
  if (isThrottlingError(sdk) || isTransientError(sdk) || isServerError(sdk)) return true;
  if (
    e.name === 'TransactionCanceledException' &&
    (e.CancellationReasons ?? []).some((r) => r.Code !== undefined && RETRYABLE_CANCELLATIONS.has(r.Code)) &&
    !(e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'ValidationError')
  )
    return true;
  return isDependencyUnavailable(e.cause, depth + 1);
}

/** An error the SDK's classification (above) counts as throttling: the table kept refusing part of a batch. */
export function throttled(message: string): Error {
  return Object.assign(new Error(message), { name: 'UnprocessedItems', $retryable: { throttling: true } });
}
