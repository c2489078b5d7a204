/** What a runtime process (runtime-process.ts) and the pool (runtime-pool.ts) say to each other. */
export type RuntimeMessage =
  | { type: 'ready'; baseUrl: string; env: Record<string, string> }
  | { type: 'failed'; message: string }
  | { type: 'stop' };

/**
 * The environment a test file takes from the runtime it is given: what its domain calls need to reach
 * the same table, bucket and secrets, and what its tests read of the runtime's settings.
 */
export const RUNTIME_ENV_KEYS = [
  'APP_RUNTIME',
  'DATA_DIR',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ENDPOINT_URL_S3',
  'AWS_REQUEST_CHECKSUM_CALCULATION',
  'AWS_RESPONSE_CHECKSUM_VALIDATION',
  'S3_FORCE_PATH_STYLE',
  'TABLE_NAME',
  'BUCKET_NAME',
  'SERVICE_VERSION',
  'COMPANY_TIMEZONE',
  'ALLOWED_ORIGINS',
  'CURSOR_SECRET',
  'GRIEVANCE_SECRET',
  'SURVEY_SECRET',
  'NOTIFICATION_SECRET',
  'IDEMPOTENCY_SECRET',
  'AVATAR_SECRET',
  'SCIM_TOKEN',
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_EMAIL_DOMAINS',
  'LIVE_STREAMS_PER_PERSON',
  'LIVE_REPLICAS',
  'LIVE_STREAM_MIN_SECONDS',
  'LIVE_STREAM_MAX_SECONDS',
] as const;
