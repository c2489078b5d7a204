import { AuditEntry } from '../audit/entities.ts';
import { Session } from '../auth/entities.ts';
import type { SecretName } from '../config/secrets.ts';
import { IdempotencyRecord } from '../db/idempotency-record.ts';
import { isLiteral } from '../db/key-template.ts';

import { INDEXES } from '../db/table-definition.ts';
import type { AnyRoute, RouteAccess, WriteTarget } from './route-def.ts';

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
  | { kind: 'mediaSigningParameter' }
  /** The distribution that serves the public media (its edge caches). */
  | { kind: 'mediaDistribution' };

export interface AccessStatement {
  sid: string;
  actions: string[];
  resources: PolicyResource[];
  /**
   * Fine-grained DynamoDB access: only items whose partition key matches one of these patterns
   * (`PREFIX#*`, or a fixed partition key as it is), as IAM `ForAllValues:StringLike` on
   * `dynamodb:LeadingKeys` matches them.
   */
  leadingKeys?: string[];
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
export const BUCKET_ACTIONS = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject'],
  delete: ['s3:DeleteObject'],
  erase: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
} as const;
export const SNS_ACTIONS = [
  'sns:Publish',
  'sns:CreatePlatformEndpoint',
  'sns:GetEndpointAttributes',
  'sns:SetEndpointAttributes',
  'sns:DeleteEndpoint',
];
export const SES_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'];

/**
 * The `dynamodb:LeadingKeys` pattern covering every partition key an entity makes: its constant head
 * up to the last `#` before the first field (`MEETING#*`), or the key itself when no field reaches
 * the partition key (`WEBSITE`). Read from the declaration's template, so a changed key changes the
 * grant with it. A partition key whose first segment is a field has no such prefix: it cannot be
 * granted this way (the caller must leave the function table-wide).
 */
export function leadingKeyPattern(target: WriteTarget): string {
  const head: string[] = [];
  for (const segment of target.keyTemplate.pk) {
    if (!isLiteral(segment)) {
      if (head.length === 0) throw new Error(`${target.name}: the partition key has no constant prefix to grant`);
      return `${head.join('#')}#*`;
    }
    head.push(segment);
  }
  return head.join('#');
}

/** Session items (`shared/auth/entities.ts`): the daily refresh of the caller's session. */
export const SESSION_KEYS = leadingKeyPattern(Session);
/** The `Idempotency-Key` records (shared/http/idempotency.ts) every idempotent route writes. */
export const IDEMPOTENCY_KEYS = leadingKeyPattern(IdempotencyRecord);
/** The admin audit log's entries (shared/audit/), written by every route that declares `audit`. */
export const AUDIT_KEYS = leadingKeyPattern(AuditEntry);

/** A function's declaration: its access and whether it refreshes the caller's session. */
export interface FunctionAccess {
  access?: RouteAccess;
  /**
   * The handler wrapper extends a session used more than a day after its last refresh
   * (shared/auth/sessions.ts): an UpdateItem on the session item even on read-only routes.
   */
  refreshesSession?: boolean;
  /** Honours `Idempotency-Key`: records its first outcome, whatever its `access.writes` name. */
  idempotent?: boolean;
  /** Declares `audit`: records its entry in the admin audit log, whatever its `access.writes` name. */
  audited?: boolean;
  /** `access.writes` resolved to its patterns (`plainFunctionAccess`); when present, it is what counts. */
  writeKeys?: string[];
  /**
   * The application secrets the function reads: those whose reading module its bundle contains
   * (infra/build/bundle.ts records them; the local runtime finds them in the module it compiles).
   */
  secrets?: readonly SecretName[];
}

/** A route's declaration: session routes refresh, public and anonymous (grievance) routes never do. */
export const routeFunctionAccess = (
  route: Pick<AnyRoute, 'access' | 'auth' | 'anonymous' | 'idempotent' | 'audit'>,
): FunctionAccess => ({
  access: route.access,
  refreshesSession: route.auth !== 'public' && !route.anonymous,
  ...(route.idempotent ? { idempotent: true } : {}),
  ...(route.audit ? { audited: true } : {}),
});

/**
 * The partition keys a writing function may write (`dynamodb:LeadingKeys` patterns), or `undefined`
 * when it declares none and writes anywhere in the table. Besides what `access.writes` names, what the
 * request wrapper writes for every such function: the session refresh, the idempotency record and the
 * audit log's entry.
 */
export function writableKeys({
  access = {},
  refreshesSession = false,
  idempotent = false,
  audited = false,
  writeKeys,
}: FunctionAccess): string[] | undefined {
  const declared = writeKeys ?? access.writes?.map(leadingKeyPattern);
  if (access.table !== 'write' || !declared) return undefined;
  const patterns = [...declared];
  if (refreshesSession) patterns.push(SESSION_KEYS);
  if (idempotent) patterns.push(IDEMPOTENCY_KEYS);
  if (audited) patterns.push(AUDIT_KEYS);
  return [...new Set(patterns)].sort();
}

/**
 * The declaration as plain data, `access.writes` (key builders) resolved to `writeKeys`: the local
 * runtime hands it to the function's worker thread, which cannot receive functions.
 */
export function plainFunctionAccess<T extends FunctionAccess>(fn: T): T {
  if (!fn.access?.writes) return fn;
  const { writes, ...access } = fn.access;
  return { ...fn, access, writeKeys: fn.writeKeys ?? writes.map(leadingKeyPattern) };
}

/** The statements a function's role holds (besides its log group and, for stream consumers, the stream). */
export function accessStatements(declaration: FunctionAccess): AccessStatement[] {
  const { access = {}, refreshesSession = false, secrets = [] } = declaration;
  const writes = access.table === 'write';
  const writable = writableKeys(declaration);
  const statements: AccessStatement[] = [
    {
      sid: 'Table',
      actions: [...TABLE_READ_ACTIONS, ...(writes && !writable ? TABLE_WRITE_ACTIONS : [])],
      resources: [{ kind: 'table' }],
    },
    // Each index by name: the indexes are fixed by shared/db/table-definition.ts.
    { sid: 'IndexQuery', actions: ['dynamodb:Query'], resources: INDEXES.map((name) => ({ kind: 'index', name })) },
  ];
  if (writable) {
    // The writes, on the partitions the function declares only (reads and condition checks stay table-wide).
    statements.push({
      sid: 'TableWrite',
      actions: TABLE_WRITE_ACTIONS,
      resources: [{ kind: 'table' }],
      leadingKeys: writable,
    });
  }
  if (access.scan) {
    statements.push({ sid: 'TableScan', actions: ['dynamodb:Scan'], resources: [{ kind: 'table' }] });
  }
  if (refreshesSession && !writes) {
    // A read-only route still extends the caller's session once a day: UpdateItem on session items only.
    statements.push({
      sid: 'SessionRefresh',
      actions: ['dynamodb:UpdateItem'],
      resources: [{ kind: 'table' }],
      leadingKeys: [SESSION_KEYS],
    });
  }
  (access.bucket ?? []).forEach((grant, i) => {
    statements.push({
      sid: `Bucket${i}`,
      actions: [...new Set(grant.actions.flatMap((a) => BUCKET_ACTIONS[a]))],
      resources: [{ kind: 'objects', prefix: grant.prefix }],
    });
  });
  if (access.bucket?.some((grant) => grant.actions.includes('read'))) {
    // Without s3:ListBucket, S3 answers a read of a missing object with 403 AccessDenied rather
    // than 404 NoSuchKey (GetObject API reference); readers tell "no such file" from a failure.
    statements.push({ sid: 'BucketList', actions: ['s3:ListBucket'], resources: [{ kind: 'bucket' }] });
  }
  if (access.bucket?.some((grant) => grant.actions.includes('erase'))) {
    // Erasing every version of an object starts from listing them (s3:ListBucketVersions, on the bucket).
    statements.push({
      sid: 'BucketVersions',
      actions: ['s3:ListBucketVersions', 's3:ListBucket'],
      resources: [{ kind: 'bucket' }],
    });
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
    if (access.invalidatesMedia)
      statements.push({
        sid: 'MediaInvalidation',
        actions: ['cloudfront:CreateInvalidation'],
        resources: [{ kind: 'mediaDistribution' }],
      });
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

/** The IAM condition of a statement with `leadingKeys`. */
export const leadingKeysCondition = (patterns: string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
});

/** Whether a partition key matches a `leadingKeys` pattern (as StringLike does: `*` only ever ends one here). */
export const matchesLeadingKey = (pattern: string, pk: string): boolean =>
  pattern.endsWith('*') ? pk.startsWith(pattern.slice(0, -1)) : pk === pattern;
