import type { SecretName } from '../config/secrets.ts';
import { sessionKey } from '../db/keys.ts';
import { INDEXES } from '../db/table-definition.ts';
import type { AnyRoute, RouteAccess } from './route-def.ts';

/**
 * What a function may touch, derived once from its `access` declaration: the CDK construct turns
 * these statements into the function role's IAM policy (infra/constructs/route-function.ts) and the
 * local runtime's guard refuses every AWS call they do not allow (infra/local/access-guard.ts), so
 * the two cannot drift. Resources are named abstractly; each side resolves them (ARNs when deployed,
 * the table and bucket names locally).
 */
export type PolicyResource =
  | { kind: 'table' }
  | { kind: 'index'; name: string }
  /** The bucket itself (s3:ListBucket). */
  | { kind: 'bucket' }
  /** Objects whose key starts with `prefix`. */
  | { kind: 'objects'; prefix: string }
  /** The configured SNS platform applications (FCM, APNs). */
  | { kind: 'pushApplications' }
  /** Any SNS platform endpoint (created per device at run time). */
  | { kind: 'pushEndpoints' }
  /** The SES identities of the sender. */
  | { kind: 'mailIdentities' }
  | { kind: 'mediaSigningSecret' }
  /** One of the application secrets (shared/config/secrets.ts). */
  | { kind: 'appSecret'; name: SecretName }
  | { kind: 'mediaSigningParameter' };

export interface AccessStatement {
  sid: string;
  actions: string[];
  resources: PolicyResource[];
  /**
   * Fine-grained DynamoDB access: only items whose partition key starts with one of these
   * (IAM `ForAllValues:StringLike` on `dynamodb:LeadingKeys`).
   */
  leadingKeyPrefixes?: string[];
}

/** Every function reads: each request resolves a session. Transactions need no action of their own. */
export const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
/**
 * `access.table: 'write'`. TransactWriteItems is authorised per contained action (Put/Update/Delete
 * need these, ConditionCheck needs dynamodb:ConditionCheckItem): IAM has no TransactWriteItems action.
 * BatchWriteItem is its own action (the change feed appends live events with it).
 */
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];
export const BUCKET_ACTIONS = { read: 's3:GetObject', write: 's3:PutObject', delete: 's3:DeleteObject' } as const;
export const SNS_ACTIONS = [
  'sns:Publish',
  'sns:CreatePlatformEndpoint',
  'sns:GetEndpointAttributes',
  'sns:SetEndpointAttributes',
  'sns:DeleteEndpoint',
];
export const SES_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'];

/** The partition-key prefix of session items (`shared/db/keys.ts`). */
export const SESSION_KEY_PREFIX = sessionKey('').pk;

/** A function's declaration: its access and whether it refreshes the caller's session. */
export interface FunctionAccess {
  access?: RouteAccess;
  /**
   * The handler wrapper extends a session used more than a day after its last refresh
   * (shared/auth/sessions.ts): an UpdateItem on the session item even on read-only routes.
   */
  refreshesSession?: boolean;
  /**
   * The application secrets the function reads: those whose reading module its bundle contains
   * (infra/build/bundle.ts records them; the local runtime finds them in the module it compiles).
   */
  secrets?: readonly SecretName[];
}

/** A route's declaration: session routes refresh, public and anonymous (grievance) routes never do. */
export const routeFunctionAccess = (route: Pick<AnyRoute, 'access' | 'auth' | 'anonymous'>): FunctionAccess => ({
  access: route.access,
  refreshesSession: route.auth !== 'public' && !route.anonymous,
});

/** The statements a function's role holds (besides its log group and, for stream consumers, the stream). */
export function accessStatements({
  access = {},
  refreshesSession = false,
  secrets = [],
}: FunctionAccess): AccessStatement[] {
  const writes = access.table === 'write';
  // Writes limited to some partitions: reads stay table-wide, writes get their own statement.
  const narrowWrites = writes && access.writePrefixes !== undefined;
  const statements: AccessStatement[] = [
    {
      sid: 'Table',
      actions: [...TABLE_READ_ACTIONS, ...(writes && !narrowWrites ? TABLE_WRITE_ACTIONS : [])],
      resources: [{ kind: 'table' }],
    },
    // Each index by name: the indexes are fixed by shared/db/table-definition.ts.
    { sid: 'IndexQuery', actions: ['dynamodb:Query'], resources: INDEXES.map((name) => ({ kind: 'index', name })) },
  ];
  if (access.scan) {
    statements.push({ sid: 'TableScan', actions: ['dynamodb:Scan'], resources: [{ kind: 'table' }] });
  }
  if (narrowWrites) {
    statements.push({
      sid: 'TableWritePartitions',
      actions: TABLE_WRITE_ACTIONS,
      resources: [{ kind: 'table' }],
      leadingKeyPrefixes: [
        ...new Set([...(refreshesSession ? [SESSION_KEY_PREFIX] : []), ...(access.writePrefixes ?? [])]),
      ],
    });
  }
  if (refreshesSession && !writes) {
    // A read-only route still extends the caller's session once a day: UpdateItem on session items only.
    statements.push({
      sid: 'SessionRefresh',
      actions: ['dynamodb:UpdateItem'],
      resources: [{ kind: 'table' }],
      leadingKeyPrefixes: [SESSION_KEY_PREFIX],
    });
  }
  (access.bucket ?? []).forEach((grant, i) => {
    statements.push({
      sid: `Bucket${i}`,
      actions: [...new Set(grant.actions.map((a) => BUCKET_ACTIONS[a]))],
      resources: [{ kind: 'objects', prefix: grant.prefix }],
    });
  });
  if (access.bucket?.some((grant) => grant.actions.includes('read'))) {
    // Without s3:ListBucket, S3 answers a read of a missing object with 403 AccessDenied rather
    // than 404 NoSuchKey (GetObject API reference); readers tell "no such file" from a failure.
    statements.push({ sid: 'BucketList', actions: ['s3:ListBucket'], resources: [{ kind: 'bucket' }] });
  }
  if (access.sns) {
    statements.push(
      // Device registration: endpoints are created under the configured platform applications only.
      { sid: 'PushEndpoints', actions: ['sns:CreatePlatformEndpoint'], resources: [{ kind: 'pushApplications' }] },
      {
        sid: 'PushDelivery',
        actions: SNS_ACTIONS.filter((a) => a !== 'sns:CreatePlatformEndpoint'),
        resources: [{ kind: 'pushEndpoints' }],
      },
    );
  }
  if (access.ses) statements.push({ sid: 'Email', actions: SES_ACTIONS, resources: [{ kind: 'mailIdentities' }] });
  if (access.publicMedia) {
    statements.push(
      {
        sid: 'MediaSigningKey',
        actions: ['secretsmanager:GetSecretValue'],
        resources: [{ kind: 'mediaSigningSecret' }],
      },
      { sid: 'MediaSigningParameter', actions: ['ssm:GetParameter'], resources: [{ kind: 'mediaSigningParameter' }] },
    );
  }
  if (secrets.length) {
    statements.push({
      sid: 'Secrets',
      actions: ['secretsmanager:GetSecretValue'],
      resources: secrets.map((name) => ({ kind: 'appSecret', name })),
    });
  }
  return statements;
}

/** The IAM condition of a statement with `leadingKeyPrefixes`. */
export const leadingKeysCondition = (prefixes: string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((p) => `${p}*`) },
});
