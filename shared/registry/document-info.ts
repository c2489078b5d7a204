import { env } from '../config/env.ts';

/**
 * The `info` of the service's published documents (the OpenAPI document of the HTTP API and the AsyncAPI
 * document of the live stream): one place for the version and the contact they share.
 */
export const documentInfo = (title: string, description: string) => ({
  title,
  version: env.serviceVersion,
  contact: { name: 'Platform engineering team' },
  description,
});
