import { env } from '../config/env.ts';

/**
 * How every transport (e-mail, push) is chosen on each use: the one a test installed, else the local
 * outbox in the local runtime (`APP_RUNTIME=local`), else the AWS one, made on first use so that
 * code paths that never send create no client.
 */
export function transportChoice<T>(outbox: T, deployed: () => T) {
  let installed: T | undefined;
  let made: T | undefined;
  return {
    current: (): T => {
      if (installed) return installed;
      if (env.runtime === 'local') return outbox;
      made ??= deployed();
      return made;
    },
    install: (transport: T | undefined): void => {
      installed = transport;
    },
  };
}
