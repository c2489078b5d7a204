import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ResourceNotFoundException,
  ThrottlingException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { NoSuchKey, S3ServiceException } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { isDependencyUnavailable, throttled } from '../../shared/db/unavailable.ts';
import { conflict } from '../../shared/errors.ts';
import { ConflictError } from '../../shared/http/errors.ts';

/** Errors built the way the SDK builds them from a service's answer (status in $metadata). */
const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode, attempts: 3 } });
const s3Error = (name: string, status: number) =>
  new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', message: name, ...meta(status) });
const dynamoError = (name: string, status: number) =>
  new DynamoDBServiceException({ name, $fault: status >= 500 ? 'server' : 'client', message: name, ...meta(status) });
/** What Node's HTTP client throws for a refused or dropped connection (the SDK passes it on). */
const networkError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code, errno: -111 });
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    CancellationReasons: codes.map((Code) => ({ Code })),
    ...meta(400),
  });

describe('isDependencyUnavailable (503) versus a bug or the client (not 503)', () => {
  it.each([
    ['ThrottlingException', new ThrottlingException({ message: 'Rate exceeded', ...meta(400) })],
    [
      'ProvisionedThroughputExceededException',
      new ProvisionedThroughputExceededException({ message: 'Throughput exceeded', ...meta(400) }),
    ],
    ['RequestLimitExceeded', new RequestLimitExceeded({ message: 'Account limit', ...meta(400) })],
    ['InternalServerError', new InternalServerError({ message: 'Internal error', ...meta(500) })],
    ['an unmodelled DynamoDB 503', dynamoError('ServiceUnavailable', 503)],
    ['S3 SlowDown', s3Error('SlowDown', 503)],
    ['S3 ServiceUnavailable', s3Error('ServiceUnavailable', 503)],
    ['S3 InternalError', s3Error('InternalError', 500)],
    ['any 5xx', dynamoError('NotImplemented', 501)],
    ['HTTP 429', s3Error('TooManyRequests', 429)],
    ['ECONNREFUSED', networkError('ECONNREFUSED')],
    ['ECONNRESET', networkError('ECONNRESET')],
    ['ETIMEDOUT', networkError('ETIMEDOUT')],
    ['ENOTFOUND', networkError('ENOTFOUND')],
    ['the SDK TimeoutError', Object.assign(new Error('Connection timed out after 1000 ms'), { name: 'TimeoutError' })],
    ['a transaction cancelled by throttling', cancelled('None', 'ThrottlingError')],
    ['a transaction cancelled by throughput', cancelled('ProvisionedThroughputExceeded', 'None')],
    ['a transaction still conflicting after retries', cancelled('TransactionConflict', 'None')],
    ['a batch left unprocessed', throttled('BatchWrite: items left unprocessed after 8 attempts')],
    [
      'a throttling error wrapped as a cause',
      new Error('while reading', { cause: new ThrottlingException({ message: 'x', ...meta(400) }) }),
    ],
  ])('%s → 503', (_name, err) => {
    expect(isDependencyUnavailable(err)).toBe(true);
  });

  it.each([
    ['ConditionalCheckFailedException', new ConditionalCheckFailedException({ message: 'failed', ...meta(400) })],
    ['ValidationException (a key too long: a bug or bad input)', dynamoError('ValidationException', 400)],
    [
      'ResourceNotFoundException (no such table: configuration)',
      new ResourceNotFoundException({ message: 'no table', ...meta(400) }),
    ],
    ['S3 NoSuchKey', new NoSuchKey({ message: 'no key', ...meta(404) })],
    ['S3 AccessDenied', s3Error('AccessDenied', 403)],
    ['a transaction cancelled by a condition', cancelled('ConditionalCheckFailed', 'None')],
    ['a condition failure next to a throttled item', cancelled('ConditionalCheckFailed', 'ThrottlingError')],
    ['a transaction cancelled by validation', cancelled('ValidationError')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a plain Error', new Error('boom')],
    ['an HttpError', new ConflictError('conflict')],
    ['a DomainError', conflict('conflict')],
    ['undefined', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('%s → not 503', (_name, err) => {
    expect(isDependencyUnavailable(err)).toBe(false);
  });
});
