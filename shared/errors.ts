/**
 * The domain's refusals, free of HTTP: a domain function says *why* it refuses (the input is invalid,
 * the thing does not exist, the caller may not…) and the handler wrapper alone decides what that is
 * on the wire (shared/http/middlewares/http-errors.ts maps each kind to a status). Anything else a
 * domain function throws is a bug or a failing dependency.
 */
export type DomainErrorKind =
  /** The input breaks a rule the schema cannot express (field errors, or one sentence). */
  | 'invalid'
  /** No valid session, or it expired or was revoked. */
  | 'unauthenticated'
  /** The caller is known but may not do this. */
  | 'forbidden'
  /** No such thing (or not one the caller may see). */
  | 'not-found'
  /** The thing's state forbids the change (already closed, taken, changed meanwhile). */
  | 'conflict'
  /** The content is larger than the limit. */
  | 'too-large'
  /** Too many attempts: retrying after `retryAfterSeconds` can succeed. */
  | 'too-many'
  /** A capacity of the service is exhausted: retrying after `retryAfterSeconds` can succeed. */
  | 'unavailable';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    /** What the client is shown: one sentence, or field errors (`field: reason`) as a list. */
    readonly reasons: string | string[],
    readonly details: {
      /** A machine-readable UPPER_SNAKE_CASE reason (better-auth's client reads it on the auth routes). */
      code?: string;
      /** When retrying can succeed ('too-many', 'unavailable'). */
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(Array.isArray(reasons) ? reasons.join('; ') : reasons);
  }
}

export const invalid = (reasons: string | string[], code?: string) => new DomainError('invalid', reasons, { code });
export const unauthenticated = (message = 'Sign in to continue.', code?: string) =>
  new DomainError('unauthenticated', message, { code });
export const forbidden = (message = 'You are not allowed to do this.', code?: string) =>
  new DomainError('forbidden', message, { code });
export const notFound = (message = 'Not found.', code?: string) => new DomainError('not-found', message, { code });
export const conflict = (message: string) => new DomainError('conflict', message);
export const tooLarge = (message: string) => new DomainError('too-large', message);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new DomainError('too-many', message, { retryAfterSeconds });
export const unavailable = (message: string, retryAfterSeconds: number) =>
  new DomainError('unavailable', message, { retryAfterSeconds });

/**
 * For `.catch()`: turns a DomainError of one of these kinds into `undefined` (an expected absence) and
 * rethrows anything else, so a failing dependency is never taken for "not there".
 */
export const unless =
  (...kinds: DomainErrorKind[]) =>
  (err: unknown): undefined => {
    if (err instanceof DomainError && kinds.includes(err.kind)) return undefined;
    throw err;
  };
