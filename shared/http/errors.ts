import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** The common error body of every non-2xx answer; clients show `message` as given. */
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

/** The one builder of the common error body; every error answer (wrapper, stream, local gateway) goes through it. */
export function errorBody(statusCode: number, message: string | string[], code?: string): ErrorBody {
  const body: ErrorBody = { statusCode, message, error: reasonPhrase(statusCode) };
  if (code) body.code = code;
  return body;
}

export interface HttpErrorOptions {
  /** A machine-readable reason, shown on the authentication routes. */
  code?: string;
  /** Headers the answer carries (`Retry-After`, `Allow`). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * An answer that refuses the request, as Powertools' event-handler HTTP errors: the status, the
 * client's message and `toJSON()` giving the common body. The wrapper's error middleware is the only
 * code that turns errors into answers; the domain throws DomainErrors (shared/errors.ts), which that
 * middleware maps onto these.
 */
export class HttpError extends Error {
  override readonly name: string = 'HttpError';
  readonly headers: Record<string, string>;
  readonly #code: string | undefined;

  constructor(
    readonly statusCode: number,
    /** One sentence, or field errors as a list (shown as given). */
    readonly reasons: string | string[],
    options: HttpErrorOptions = {},
  ) {
    super(Array.isArray(reasons) ? reasons.join('; ') : reasons, { cause: options.cause });
    this.headers = options.headers ?? {};
    this.#code = options.code;
  }

  /** The reason code: the one given, else the reason phrase in UPPER_SNAKE_CASE (`Not Found` → `NOT_FOUND`). */
  get code(): string {
    return this.#code ?? reasonPhrase(this.statusCode).toUpperCase().replace(/\W+/g, '_');
  }

  toJSON(withCode = false): ErrorBody {
    return errorBody(this.statusCode, this.reasons, withCode ? this.code : undefined);
  }

  /** The API Gateway (payload 2.0) answer; `withCode` on the authentication routes. */
  toResponse(withCode = false): APIGatewayProxyStructuredResultV2 {
    return {
      statusCode: this.statusCode,
      headers: { 'content-type': 'application/json; charset=utf-8', ...this.headers },
      body: JSON.stringify(this.toJSON(withCode)),
    };
  }
}

const retryAfter = (seconds: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(seconds))) });

export class BadRequestError extends HttpError {
  constructor(reasons: string | string[], options?: HttpErrorOptions) {
    super(400, reasons, options);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message: string | string[] = 'Sign in to continue.', options?: HttpErrorOptions) {
    super(401, message, options);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message: string | string[] = 'You are not allowed to do this.', options?: HttpErrorOptions) {
    super(403, message, options);
  }
}
export class NotFoundError extends HttpError {
  constructor(message: string | string[] = 'Not found.', options?: HttpErrorOptions) {
    super(404, message, options);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string | string[], options?: HttpErrorOptions) {
    super(409, message, options);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(message: string | string[], options?: HttpErrorOptions) {
    super(413, message, options);
  }
}
export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string | string[], options?: HttpErrorOptions) {
    super(415, message, options);
  }
}
export class UnprocessableContentError extends HttpError {
  constructor(message: string | string[], options?: HttpErrorOptions) {
    super(422, message, options);
  }
}
/** Trying again after `retryAfterSeconds` can succeed (sent as `Retry-After`). */
export class TooManyRequestsError extends HttpError {
  constructor(message: string | string[], retryAfterSeconds: number, options?: HttpErrorOptions) {
    super(429, message, { ...options, headers: { ...options?.headers, ...retryAfter(retryAfterSeconds) } });
  }
}
export class InternalServerError extends HttpError {
  constructor(message: string | string[] = 'Something went wrong on our side.', options?: HttpErrorOptions) {
    super(500, message, options);
  }
}
/** Overloaded or a dependency down: the client retries after `retryAfterSeconds` (sent as `Retry-After`). */
export class ServiceUnavailableError extends HttpError {
  constructor(message: string | string[], retryAfterSeconds: number, options?: HttpErrorOptions) {
    super(503, message, { ...options, headers: { ...options?.headers, ...retryAfter(retryAfterSeconds) } });
  }
}

/** An answer in the common body for a status and message (the catch-all route, the local gateway). */
export const errorResponse = (status: number, message: string | string[], headers?: Record<string, string>) =>
  new HttpError(status, message, { headers }).toResponse();

/** The resource exists, but in none of the media types the `Accept` header allows (a handler's content negotiation). */
export class NotAcceptableError extends HttpError {
  constructor(message: string | string[], options?: HttpErrorOptions) {
    super(406, message, options);
  }
}
