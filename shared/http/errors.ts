/** The common error body of every non-2xx answer (spec part 7). */
export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const reasonPhrase = (status: number): string => REASONS[status] ?? 'Error';

/**
 * An error meant for the client. Domain code throws these; the handler wrapper turns them into the
 * common error body. Anything else that escapes is a bug and answers 500 without details.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string | string[],
    /** Response headers that belong to the error (`Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(Array.isArray(body) ? body.join('; ') : body);
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return { statusCode: this.statusCode, message: this.body, error: reasonPhrase(this.statusCode) };
  }
}

export const badRequest = (message: string | string[]) => new HttpError(400, message);
export const unauthorized = (message = 'Sign in to continue.') => new HttpError(401, message);
export const forbidden = (message = 'You are not allowed to do this.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooLarge = (message: string) => new HttpError(413, message);
export const tooManyRequests = (message: string) => new HttpError(429, message);
/** Overloaded or a dependency down: the client retries after `retryAfterSeconds` (the `Retry-After` header). */
export const serviceUnavailable = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, { 'retry-after': String(retryAfterSeconds) });
