import { secret } from '../config/secrets.ts';

/**
 * The identity provider's client secret (`OIDC_CLIENT_SECRET` locally, Secrets Manager deployed): the
 * one module that reads it, so only the functions that exchange a code are granted it.
 */
export const oidcClientSecret = (): string => secret('oidcClient');
