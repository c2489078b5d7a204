import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Deployment settings, read from CDK context (`cdk.json` or `-c key=value`):
 *
 * | context key                   | default            | becomes                                             |
 * |-------------------------------|--------------------|-----------------------------------------------------|
 * | `workplace:prefix`            | `Workplace`        | stack names (`<prefix>-Data`, ...) and export names |
 * | `workplace:allowedOrigins`    | `*` (warned about) | ALLOWED_ORIGINS of every function, bucket CORS      |
 * | `workplace:companyTimezone`   | `UTC`              | COMPANY_TIMEZONE                                    |
 * | `workplace:logRetentionDays`  | `30`               | retention of every function's and the API's logs   |
 * | `workplace:logLevel`          | `INFO`             | LOG_LEVEL                                           |
 * | `workplace:sourceMaps`        | `false`            | `true`: NODE_OPTIONS=--enable-source-maps (stack    |
 * |                               |                    | traces mapped to sources, at a cold-start cost)     |
 * | `workplace:mailFrom`          | unset              | MAIL_FROM of the functions that send e-mail (SES)   |
 * |                               |                    | and the SES e-mail identity the data stack creates  |
 * | `workplace:domainName`        | unset              | custom domain of the CloudFront distribution        |
 * | `workplace:certificateArn`    | unset              | its ACM certificate (us-east-1); both or neither    |
 * | `workplace:fcmPlatformApplicationArn`  | unset     | PUSH_FCM_APPLICATION_ARN (web and android push)     |
 * | `workplace:apnsPlatformApplicationArn` | unset     | PUSH_APNS_APPLICATION_ARN (ios push)                |
 * | `workplace:fcmPlatformApplicationParameter`  | unset | or: an SSM String parameter holding that ARN      |
 * | `workplace:apnsPlatformApplicationParameter` | unset | (resolved by CloudFormation at deploy time)       |
 * | `workplace:alarmEmail`        | unset              | e-mail subscribed to the operators' alarm topic     |
 * | `workplace:alarmTopicArn`     | unset              | an existing SNS topic for the alarms instead of the |
 * |                               |                    | one the data stack creates (same region)            |
 * | `workplace:streamReservedConcurrency` | `400`      | reserved concurrency of each streaming function: at |
 * |                               |                    | most this many open live-update streams at once     |
 * | `workplace:apiRateLimit`      | `500`              | HTTP API stage throttling: steady requests/second   |
 * | `workplace:apiBurstLimit`     | `1000`             | and burst                                           |
 * | `workplace:accountConcurrencyLimit` | `1000`       | the account's Lambda concurrency quota (written by  |
 * |                               |                    | the preflight from the account, infra/deploy/)      |
 * | `workplace:otherReservedConcurrency` | `0`         | executions the account's other functions (other     |
 * |                               |                    | environments) reserve; written by the preflight     |
 * | `workplace:apiCertificateArn` | unset              | a certificate for `workplace:domainName` in the     |
 * |                               |                    | stack's region: the API gets that custom domain and |
 * |                               |                    | its execute-api endpoint is disabled (CloudFront    |
 * |                               |                    | is then the only way in)                            |
 * | `workplace:adminEmail`        | unset              | the first super admin, created at deploy when none  |
 * |                               |                    | exists (password generated in Secrets Manager)      |
 * | `workplace:edge`              | `true`             | `false` leaves out the CloudFront stack (LocalStack |
 * |                               |                    | community has no CloudFront)                        |
 * | `workplace:mediaSigningPublicKey` | unset          | PEM of the CloudFront public key that verifies the  |
 * |                               |                    | public feed's media URLs (with the edge stack)      |
 * | `workplace:mediaSigningPublicKeyParameter` | unset | or: an SSM String parameter holding that PEM      |
 * | `workplace:mediaSigningSecret` | unset             | name or ARN of the Secrets Manager secret holding   |
 * |                               |                    | the private key PEM (docs/deployment.md); without   |
 * |                               |                    | the pair, media URLs are S3 presigned (short-lived) |
 *
 * | `workplace:restoredTableName` | unset             | serve from this existing table (a point-in-time     |
 * | `workplace:restoredTableStreamArn` | unset        | restore) instead of `<prefix>-table`; both or       |
 * |                               |                    | neither (docs/deployment.md, "Restoring the table") |
 * | `workplace:grievanceAckDays` | `7`                | GRIEVANCE_ACK_DAYS of the grievance functions: days |
 * |                               |                    | from raising to the acknowledgement deadline        |
 * | `workplace:grievanceFeedbackDays` | `90`           | GRIEVANCE_FEEDBACK_DAYS: days from acknowledgement  |
 * |                               |                    | to the feedback deadline                            |
 * | `workplace:grievanceRetentionDays` | unset (off)   | GRIEVANCE_RETENTION_DAYS: finished grievances older |
 * |                               |                    | than this are erased (at least 30)                  |
 * | `workplace:peopleRetentionDays` | unset (off)     | PEOPLE_RETENTION_DAYS of the people-retention       |
 * |                               |                    | schedule only: people deactivated longer than this  |
 * |                               |                    | are erased (at least 30; docs/people-data.md)       |
 * | `workplace:auditRetentionDays` | `730`           | AUDIT_RETENTION_DAYS of every function: days an     |
 * |                               |                    | audit entry is kept (at least 30; audit-log.md)     |
 * | `workplace:reportHideThreshold` | `5`             | REPORT_HIDE_THRESHOLD of the moderation functions:  |
 * |                               |                    | distinct reporters that hide an item until reviewed |
 * |                               |                    | (0: never; docs/moderation.md)                      |
 * | `workplace:oidcIssuer`       | unset              | OIDC_ISSUER of the sign-in functions: single sign-on |
 * | `workplace:oidcClientId`      | unset              | OIDC_CLIENT_ID (the client secret: the secret       |
 * |                               |                    | `<prefix>/oidc-client-secret`; docs/sso.md)         |
 * | `workplace:oidcEmailDomains`  | unset              | OIDC_EMAIL_DOMAINS (comma-separated)                |
 * | `workplace:passwordSignIn`    | `on`               | PASSWORD_SIGN_IN: `off` leaves passwords to the     |
 * |                               |                    | break-glass super admin (`workplace:adminEmail`)    |
 * | `workplace:ssoCreatesMembers` | `off`              | SSO_CREATE_MEMBERS: `on` makes a vouched-for person |
 * |                               |                    | of a served domain a member at first sign-in        |
 *
 * SERVICE_VERSION is package.json's version.
 */
export interface DeployConfig {
  prefix: string;
  /** A table restored from a backup that the service serves from instead of the one the data stack creates. */
  restoredTable?: { name: string; streamArn: string };
  allowedOrigins: string[];
  companyTimezone: string;
  logRetention: RetentionDays;
  logLevel: string;
  /** Load the shipped source maps at run time (`--enable-source-maps`); off by default: it slows init. */
  sourceMaps: boolean;
  mailFrom?: string;
  serviceVersion: string;
  /** Custom domain of the distribution, with its ACM certificate (us-east-1). */
  domain?: { name: string; certificateArn: string };
  /** SNS platform application ARNs (values, or `{{resolve:ssm:...}}` dynamic references). */
  push: { fcmApplicationArn?: string; apnsApplicationArn?: string };
  alarmEmail?: string;
  /** An existing operators' topic for every alarm (else the data stack creates one). */
  alarmTopicArn?: string;
  adminEmail?: string;
  /** Reserved concurrency of each streaming function (one execution per open stream). */
  streamReservedConcurrency: number;
  /** Stage throttling of the HTTP API (requests per second, burst). */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** The account's Lambda concurrent executions quota (the preflight reads it from the account). */
  accountConcurrencyLimit: number;
  /** Executions reserved in the account by functions of other environments or services. */
  otherReservedConcurrency: number;
  /**
   * A certificate in the stack's region for `domain.name`: the HTTP API gets the same custom domain,
   * CloudFront reaches it by that name, and the default execute-api endpoint is disabled.
   */
  apiCertificateArn?: string;
  /** Deploy the CloudFront distribution (`<prefix>-Edge`). */
  edge: boolean;
  /**
   * The key pair of the public feed's CloudFront signed media URLs: the public key PEM (a value or a
   * `{{resolve:ssm:...}}` reference) and the secret (name or ARN) holding the private key PEM.
   */
  mediaSigning?: { publicKey: string; secret: string };
  /** Single sign-on (docs/sso.md): the sign-in functions' settings, when an issuer is set. */
  sso?: {
    issuer: string;
    clientId: string;
    emailDomains: string;
    passwordSignIn: 'on' | 'off';
    createsMembers: 'on' | 'off';
  };
  /** The grievance channel's deadlines and retention, in days (docs/grievance-channel.md). */
  grievances: { ackDays: number; feedbackDays: number; retentionDays?: number };
  /** Days after deactivation a person is erased; absent: never by time (docs/people-data.md). */
  peopleRetentionDays?: number;
  /** Days the admin audit log keeps an entry (docs/audit-log.md). */
  auditRetentionDays: number;
  /** Distinct reporters that hide a post or comment until reviewed; 0: never (docs/moderation.md). */
  reportHideThreshold: number;
}

/** The content-report functions (functions/moderation/), which apply `reportHideThreshold`. */
export const isModerationFunction = (handler: string) => /(^|\/)moderation\//.test(handler);

/** The grievance routes (functions/grievances/) and the grievance sweeps (functions/schedules/*grievance*). */
export const isGrievanceFunction = (handler: string) => /(^|\/)[^/]*grievance[^/]*(\/|\.ts$)/.test(handler);

/** The environment that carries `grievances` to the functions that handle grievances. */
export const grievanceEnvironment = (g: DeployConfig['grievances']): Record<string, string> => ({
  GRIEVANCE_ACK_DAYS: String(g.ackDays),
  GRIEVANCE_FEEDBACK_DAYS: String(g.feedbackDays),
  ...(g.retentionDays === undefined ? {} : { GRIEVANCE_RETENTION_DAYS: String(g.retentionDays) }),
});

/** The schedule that starts the erasure of people deactivated too long ago (shared/api/background.ts). */
export const PEOPLE_RETENTION_SCHEDULE = 'people-retention';

/** The environment that carries `peopleRetentionDays` to that schedule's function, and to no other. */
export const peopleRetentionEnvironment = (days: number | undefined): Record<string, string> =>
  days === undefined ? {} : { PEOPLE_RETENTION_DAYS: String(days) };

/** The SSM parameter the edge stack writes for the media signer: `{"baseUrl","keyPairId"}`. */
export const mediaSigningParameterName = (prefix: string) => `/${prefix}/media-signing`;

/** A CloudFormation dynamic reference to a plain SSM String parameter (resolved at deploy time). */
export const ssmReference = (parameterName: string) => `{{resolve:ssm:${parameterName}}}`;

const ctx = (scope: Construct, key: string): string | undefined => {
  const v = scope.node.tryGetContext(`workplace:${key}`);
  if (v === undefined || v === null || v === '') return undefined;
  return Array.isArray(v) ? v.join(',') : String(v);
};

/** Lambda's minimum of unreserved concurrent executions per account and region. */
export const UNRESERVED_MINIMUM = 100;

/** The executions the functions without a reservation share: what the concurrency alarm measures against. */
export const unreservedCapacity = (c: DeployConfig) =>
  c.accountConcurrencyLimit - c.otherReservedConcurrency - c.streamReservedConcurrency;

/** A whole number of at least `min` from context, or the default. */
const count = (scope: Construct, key: string, fallback: number, min = 1): number => {
  const raw = ctx(scope, key);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`workplace:${key}=${raw} must be a whole number of at least ${min}`);
  return n;
};

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function ssoConfig(scope: Construct): DeployConfig['sso'] {
  const issuer = ctx(scope, 'oidcIssuer');
  const clientId = ctx(scope, 'oidcClientId');
  if (!!issuer !== !!clientId) throw new Error('workplace:oidcIssuer and workplace:oidcClientId go together.');
  const passwordSignIn = ctx(scope, 'passwordSignIn') ?? 'on';
  if (passwordSignIn !== 'on' && passwordSignIn !== 'off')
    throw new Error(`workplace:passwordSignIn=${passwordSignIn} must be on or off`);
  const createsMembers = ctx(scope, 'ssoCreatesMembers') ?? 'off';
  if (createsMembers !== 'on' && createsMembers !== 'off')
    throw new Error(`workplace:ssoCreatesMembers=${createsMembers} must be on or off`);
  if (!issuer || !clientId) return undefined;
  return { issuer, clientId, emailDomains: ctx(scope, 'oidcEmailDomains') ?? '', passwordSignIn, createsMembers };
}

export function readConfig(scope: Construct, overrides: Partial<DeployConfig> = {}): DeployConfig {
  const origins = (ctx(scope, 'allowedOrigins') ?? '*')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const days = Number(ctx(scope, 'logRetentionDays') ?? 30);
  if (!Object.values(RetentionDays).includes(days)) {
    throw new Error(`workplace:logRetentionDays=${days} is not a CloudWatch Logs retention period`);
  }
  const domainName = ctx(scope, 'domainName');
  const certificateArn = ctx(scope, 'certificateArn');
  if (!!domainName !== !!certificateArn) {
    throw new Error('workplace:domainName and workplace:certificateArn go together (the certificate in us-east-1).');
  }
  const platformApplication = (platform: 'fcm' | 'apns') => {
    const arn = ctx(scope, `${platform}PlatformApplicationArn`);
    const parameter = ctx(scope, `${platform}PlatformApplicationParameter`);
    if (arn && parameter)
      throw new Error(`Give workplace:${platform}PlatformApplicationArn or ...Parameter, not both.`);
    return arn ?? (parameter ? ssmReference(parameter) : undefined);
  };
  const mediaPublicKey = ctx(scope, 'mediaSigningPublicKey');
  const mediaPublicKeyParameter = ctx(scope, 'mediaSigningPublicKeyParameter');
  const mediaSecret = ctx(scope, 'mediaSigningSecret');
  if (mediaPublicKey && mediaPublicKeyParameter)
    throw new Error('Give workplace:mediaSigningPublicKey or ...PublicKeyParameter, not both.');
  const publicKey = mediaPublicKey ?? (mediaPublicKeyParameter ? ssmReference(mediaPublicKeyParameter) : undefined);
  if (!!publicKey !== !!mediaSecret)
    throw new Error('workplace:mediaSigningPublicKey (or ...Parameter) and workplace:mediaSigningSecret go together.');
  const apiCertificateArn = ctx(scope, 'apiCertificateArn');
  if (apiCertificateArn && !domainName)
    throw new Error(
      'workplace:apiCertificateArn is the certificate of workplace:domainName in the stack region: set both.',
    );
  const restoredName = ctx(scope, 'restoredTableName');
  const restoredStream = ctx(scope, 'restoredTableStreamArn');
  if (!!restoredName !== !!restoredStream)
    throw new Error(
      "workplace:restoredTableName and workplace:restoredTableStreamArn go together: enable the restored table's stream (NEW_AND_OLD_IMAGES) and give its ARN.",
    );
  const config: DeployConfig = {
    prefix: ctx(scope, 'prefix') ?? 'Workplace',
    restoredTable: restoredName && restoredStream ? { name: restoredName, streamArn: restoredStream } : undefined,
    allowedOrigins: origins,
    companyTimezone: ctx(scope, 'companyTimezone') ?? 'UTC',
    logRetention: days as RetentionDays,
    logLevel: ctx(scope, 'logLevel') ?? 'INFO',
    sourceMaps: ctx(scope, 'sourceMaps') === 'true',
    mailFrom: ctx(scope, 'mailFrom'),
    serviceVersion: packageVersion(),
    domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
    push: { fcmApplicationArn: platformApplication('fcm'), apnsApplicationArn: platformApplication('apns') },
    alarmEmail: ctx(scope, 'alarmEmail'),
    alarmTopicArn: ctx(scope, 'alarmTopicArn'),
    adminEmail: ctx(scope, 'adminEmail'),
    streamReservedConcurrency: count(scope, 'streamReservedConcurrency', 400),
    apiThrottle: { rateLimit: count(scope, 'apiRateLimit', 500), burstLimit: count(scope, 'apiBurstLimit', 1000) },
    accountConcurrencyLimit: count(scope, 'accountConcurrencyLimit', 1000),
    otherReservedConcurrency: count(scope, 'otherReservedConcurrency', 0, 0),
    apiCertificateArn,
    edge: ctx(scope, 'edge') !== 'false',
    mediaSigning: publicKey && mediaSecret ? { publicKey, secret: mediaSecret } : undefined,
    grievances: {
      ackDays: count(scope, 'grievanceAckDays', 7),
      feedbackDays: count(scope, 'grievanceFeedbackDays', 90),
      retentionDays:
        ctx(scope, 'grievanceRetentionDays') === undefined ? undefined : count(scope, 'grievanceRetentionDays', 30, 30),
    },
    // Off unless set; at least 30 days, as the service itself requires (shared/config/env.ts).
    peopleRetentionDays:
      ctx(scope, 'peopleRetentionDays') === undefined ? undefined : count(scope, 'peopleRetentionDays', 30, 30),
    reportHideThreshold: count(scope, 'reportHideThreshold', 5, 0),
    auditRetentionDays: count(scope, 'auditRetentionDays', 730, 30),
    sso: ssoConfig(scope),
    ...overrides,
  };
  // Lambda keeps at least 100 executions of the account unreserved (deployment fails otherwise); the
  // other environments' reservations come out of the same pool.
  const available = config.accountConcurrencyLimit - config.otherReservedConcurrency - UNRESERVED_MINIMUM;
  if (config.streamReservedConcurrency > available) {
    throw new Error(
      `workplace:streamReservedConcurrency=${config.streamReservedConcurrency} is more than the account can give: its quota of ${config.accountConcurrencyLimit} Lambda executions (workplace:accountConcurrencyLimit), less ${config.otherReservedConcurrency} reserved by other functions (workplace:otherReservedConcurrency) and the ${UNRESERVED_MINIMUM} Lambda keeps unreserved, leaves ${Math.max(available, 0)}. Run the preflight (npm run deploy -- <env>), lower it, or raise the account's quota.`,
    );
  }
  return config;
}
