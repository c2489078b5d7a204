/** The common error body of every non-2xx answer (spec part 7). */
export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
  /** Authentication routes only: an UPPER_SNAKE_CASE reason, as better-auth's client reads it. */
  code?: string;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
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
    /** A machine-readable reason (shown on authentication routes) and headers the answer carries. */
    readonly extra: { code?: string; headers?: Record<string, string> } = {},
  ) {
    super(Array.isArray(body) ? body.join('; ') : body);
    this.name = 'HttpError';
  }

  /** The reason code: the one given, else the reason phrase in UPPER_SNAKE_CASE (`Not Found` → `NOT_FOUND`). */
  get code(): string {
    return this.extra.code ?? reasonPhrase(this.statusCode).toUpperCase().replace(/\W+/g, '_');
  }
}

export const badRequest = (message: string | string[], code?: string) => new HttpError(400, message, { code });
export const unauthorized = (message = 'Sign in to continue.', code?: string) => new HttpError(401, message, { code });
export const forbidden = (message = 'You are not allowed to do this.', code?: string) =>
  new HttpError(403, message, { code });
export const notFound = (message = 'Not found.', code?: string) => new HttpError(404, message, { code });
/** The resource exists, but in none of the media types the `Accept` header allows. */
export const notAcceptable = (message: string) => new HttpError(406, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooLarge = (message: string) => new HttpError(413, message);
/** `retryAfterSeconds`: when trying again can succeed, sent as `Retry-After`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
/** Overloaded or a dependency down: the client retries after `retryAfterSeconds` (the `Retry-After` header). */
export const serviceUnavailable = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
