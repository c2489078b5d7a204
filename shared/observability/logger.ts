import { Logger } from '@aws-lambda-powertools/logger';
import { env } from '../config/env.ts';

/**
 * Structured JSON logs (Powertools). Callers log identifiers and outcomes, never tokens, passwords,
 * request bodies or anything that links a person to a grievance.
 */
export const logger = new Logger({
  serviceName: 'workplace',
  logLevel: (env.logLevel as 'INFO') ?? 'INFO',
});
