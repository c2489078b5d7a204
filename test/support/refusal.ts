import { toHttpError } from '../../shared/http/middlewares/http-errors.ts';

/** The status a domain call's refusal is answered with (the wrapper's mapping), or undefined when it succeeds. */
export const refusalStatus = (call: Promise<unknown>): Promise<number | undefined> =>
  call.then(
    () => undefined,
    (err: unknown) => toHttpError(err).statusCode,
  );
