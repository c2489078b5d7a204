import {
  type AccessStatement,
  accessStatements,
  type FunctionAccess,
  matchesLeadingKey,
  type PolicyResource,
} from '../../shared/api/access-policy.ts';
import type { AwsClientHook, AwsService, HookableClient } from '../../shared/aws/clients.ts';
import { secretArnVariable } from '../../shared/config/secrets.ts';

/**
 * The local runtime's stand-in for IAM: every AWS call of a handler is checked against the statements
 * its deployed role holds (shared/api/access-policy.ts, the same derivation the CDK policy is built
 * from) and refused with the error AWS would answer. Installed per function in its worker
 * (infra/local/function-worker.ts) through shared/aws/clients.ts.
 */

/** One authorisation IAM would evaluate for a call: an action on a resource (and the item's partition key). */
export interface AwsRequest {
  action: string;
  resource: RequestResource;
  /** DynamoDB item operations: the partition key of the item (what `dynamodb:LeadingKeys` sees). */
  leadingKey?: string;
}

export type RequestResource =
  | { kind: 'table'; table: string }
  | { kind: 'index'; table: string; index: string }
  | { kind: 'bucket'; bucket: string }
  | { kind: 'object'; bucket: string; key: string }
  | { kind: 'pushApplication'; arn: string }
  | { kind: 'pushEndpoint'; arn: string }
  | { kind: 'mailIdentity'; from: string }
  | { kind: 'secret'; id: string }
  | { kind: 'parameter'; name: string }
  | { kind: 'distribution'; id: string }
  | { kind: 'other'; name: string };

/** What the abstract resources of the statements are, locally (read from the environment the runtime set). */
export interface LocalResourceNames {
  table: string;
  bucket: string;
  pushApplications: string[];
  mediaSigningSecret?: string;
  mediaSigningParameter?: string;
}

export const localResourceNames = (): LocalResourceNames => ({
  table: process.env.TABLE_NAME ?? 'workplace',
  bucket: process.env.BUCKET_NAME ?? 'workplace-media',
  pushApplications: [process.env.PUSH_FCM_APPLICATION_ARN, process.env.PUSH_APNS_APPLICATION_ARN].filter(
    (a): a is string => !!a,
  ),
  mediaSigningSecret: process.env.MEDIA_SIGNING_SECRET,
  mediaSigningParameter: process.env.MEDIA_SIGNING_PARAMETER,
});

function covers(statement: AccessStatement, request: AwsRequest, names: LocalResourceNames): boolean {
  if (!statement.actions.includes(request.action)) return false;
  if (statement.leadingKeys) {
    const key = request.leadingKey;
    if (key === undefined || !statement.leadingKeys.some((p) => matchesLeadingKey(p, key))) return false;
  }
  return statement.resources.some((s) => matches(s, request.resource, names));
}

function matches(s: PolicyResource, r: RequestResource, names: LocalResourceNames): boolean {
  switch (s.kind) {
    case 'table':
      return r.kind === 'table' && r.table === names.table;
    case 'index':
      return r.kind === 'index' && r.table === names.table && r.index === s.name;
    case 'bucket':
      return r.kind === 'bucket' && r.bucket === names.bucket;
    case 'objects':
      return r.kind === 'object' && r.bucket === names.bucket && r.key.startsWith(s.prefix);
    case 'pushApplications':
      return r.kind === 'pushApplication' && names.pushApplications.includes(r.arn);
    case 'pushEndpoints':
      return r.kind === 'pushEndpoint';
    case 'mailIdentities':
      // Deployed, narrowed to the identities of MAIL_FROM: the address every send uses.
      return r.kind === 'mailIdentity';
    case 'mediaSigningSecret':
      return r.kind === 'secret' && !!names.mediaSigningSecret && r.id === names.mediaSigningSecret;
    case 'mediaSigningParameter':
      return r.kind === 'parameter' && !!names.mediaSigningParameter && r.name === names.mediaSigningParameter;
    case 'mediaDistribution':
      // Deployed, any distribution of the account (the edge stack's is made after the functions); locally
      // there is none unless the environment names a media signing parameter (media-invalidation.ts).
      return r.kind === 'distribution' && !!names.mediaSigningParameter;
    case 'appSecret': {
      // By its ARN, when the environment names one (deployed-style configuration); locally the
      // value itself is a variable, given only to the functions granted it (infra/local/function-host.ts).
      const arn = process.env[secretArnVariable(s.name)];
      return r.kind === 'secret' && !!arn && r.id === arn;
    }
  }
  return false;
}

/** Whether the statements allow the request (IAM: allowed only when some statement allows it). */
export const allows = (statements: AccessStatement[], request: AwsRequest, names: LocalResourceNames): boolean =>
  statements.some((s) => covers(s, request, names));

const DOCUMENT_COMMANDS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

/** The partition key of a key or item, marshalled (`{ S: … }`) or not. */
const partitionKey = (item: Record<string, any> | undefined): string | undefined => {
  const pk = item?.pk;
  return typeof pk === 'string' ? pk : typeof pk?.S === 'string' ? pk.S : undefined;
};

/** The authorisations one SDK command needs, as IAM evaluates them. */
export function requestsOf(service: AwsService, commandName: string, input: Record<string, any>): AwsRequest[] {
  const name = commandName.replace(/Command$/, '');
  switch (service) {
    case 'dynamodb': {
      const op = DOCUMENT_COMMANDS[name] ?? name;
      const table = (t: string): RequestResource => ({ kind: 'table', table: t });
      const item = (action: string, t: string, key: Record<string, any> | undefined): AwsRequest => ({
        action: `dynamodb:${action}`,
        resource: table(t),
        leadingKey: partitionKey(key),
      });
      switch (op) {
        case 'GetItem':
        case 'UpdateItem':
        case 'DeleteItem':
          return [item(op, input.TableName, input.Key)];
        case 'PutItem':
          return [item(op, input.TableName, input.Item)];
        case 'Query':
        case 'Scan':
          return [
            {
              action: `dynamodb:${op}`,
              resource: input.IndexName
                ? { kind: 'index', table: input.TableName, index: input.IndexName }
                : table(input.TableName),
            },
          ];
        case 'BatchGetItem':
          return Object.keys(input.RequestItems ?? {}).map((t) => ({ action: `dynamodb:${op}`, resource: table(t) }));
        case 'BatchWriteItem':
          // IAM sees every written item's partition key (a LeadingKeys condition holds for all of them).
          return Object.entries(input.RequestItems ?? {}).flatMap(([t, writes]) =>
            ((writes as Record<string, any>[]) ?? []).map((w) =>
              item(op, t, w.PutRequest?.Item ?? w.DeleteRequest?.Key),
            ),
          );
        case 'TransactWriteItems':
        case 'TransactGetItems':
          // IAM authorises each contained operation with its own action.
          return (input.TransactItems ?? []).map((entry: Record<string, any>) => {
            if (entry.Put) return item('PutItem', entry.Put.TableName, entry.Put.Item);
            if (entry.Update) return item('UpdateItem', entry.Update.TableName, entry.Update.Key);
            if (entry.Delete) return item('DeleteItem', entry.Delete.TableName, entry.Delete.Key);
            if (entry.ConditionCheck)
              return item('ConditionCheckItem', entry.ConditionCheck.TableName, entry.ConditionCheck.Key);
            return item('GetItem', entry.Get?.TableName, entry.Get?.Key);
          });
        default:
          return [{ action: `dynamodb:${op}`, resource: table(input.TableName ?? '*') }];
      }
    }
    case 's3': {
      const object = (action: string, bucket: string, key: string): AwsRequest => ({
        action,
        resource: { kind: 'object', bucket, key },
      });
      switch (name) {
        case 'GetObject':
        case 'HeadObject':
          return [object('s3:GetObject', input.Bucket, input.Key)];
        case 'PutObject':
        case 'CreateMultipartUpload':
        case 'UploadPart':
        case 'CompleteMultipartUpload':
          return [object('s3:PutObject', input.Bucket, input.Key)];
        case 'DeleteObject':
          return [object(input.VersionId ? 's3:DeleteObjectVersion' : 's3:DeleteObject', input.Bucket, input.Key)];
        case 'DeleteObjects':
          return (input.Delete?.Objects ?? []).map((o: { Key: string; VersionId?: string }) =>
            object(o.VersionId ? 's3:DeleteObjectVersion' : 's3:DeleteObject', input.Bucket, o.Key),
          );
        case 'ListObjectVersions':
          return [{ action: 's3:ListBucketVersions', resource: { kind: 'bucket', bucket: input.Bucket } }];
        case 'CopyObject': {
          const source = decodeURIComponent(String(input.CopySource ?? '')).replace(/^\//, '');
          const slash = source.indexOf('/');
          return [
            object('s3:GetObject', source.slice(0, slash), source.slice(slash + 1)),
            object('s3:PutObject', input.Bucket, input.Key),
          ];
        }
        case 'ListObjects':
        case 'ListObjectsV2':
          return [{ action: 's3:ListBucket', resource: { kind: 'bucket', bucket: input.Bucket } }];
        default:
          return [{ action: `s3:${name}`, resource: { kind: 'bucket', bucket: input.Bucket ?? '*' } }];
      }
    }
    case 'sns':
      if (name === 'CreatePlatformEndpoint')
        return [
          {
            action: 'sns:CreatePlatformEndpoint',
            resource: { kind: 'pushApplication', arn: input.PlatformApplicationArn },
          },
        ];
      if (name === 'Publish')
        return [
          {
            action: 'sns:Publish',
            resource: input.TargetArn
              ? { kind: 'pushEndpoint', arn: input.TargetArn }
              : { kind: 'other', name: input.TopicArn ?? input.PhoneNumber ?? '*' },
          },
        ];
      if (['GetEndpointAttributes', 'SetEndpointAttributes', 'DeleteEndpoint'].includes(name))
        return [{ action: `sns:${name}`, resource: { kind: 'pushEndpoint', arn: input.EndpointArn } }];
      return [{ action: `sns:${name}`, resource: { kind: 'other', name: '*' } }];
    case 'ses':
      return [
        {
          action: `ses:${name}`,
          resource:
            name === 'SendEmail'
              ? { kind: 'mailIdentity', from: input.FromEmailAddress }
              : { kind: 'other', name: '*' },
        },
      ];
    case 'secretsmanager':
      return [{ action: `secretsmanager:${name}`, resource: { kind: 'secret', id: input.SecretId } }];
    case 'ssm':
      return [{ action: `ssm:${name}`, resource: { kind: 'parameter', name: input.Name } }];
    case 'cloudfront':
      return [{ action: `cloudfront:${name}`, resource: { kind: 'distribution', id: input.DistributionId ?? '*' } }];
  }
}

/**
 * The error each service answers an IAM denial with, as the SDK surfaces it (its name and HTTP
 * status; the service's own exception class is not needed by any caller, so none of the clients is
 * loaded here).
 */
const DENIALS: Record<AwsService, { name: string; status: number }> = {
  dynamodb: { name: 'AccessDeniedException', status: 400 },
  s3: { name: 'AccessDenied', status: 403 },
  sns: { name: 'AuthorizationError', status: 403 },
  ses: { name: 'AccessDeniedException', status: 403 },
  secretsmanager: { name: 'AccessDeniedException', status: 400 },
  ssm: { name: 'AccessDeniedException', status: 400 },
  cloudfront: { name: 'AccessDenied', status: 403 },
};

const describe = (r: RequestResource): string => {
  switch (r.kind) {
    case 'table':
      return `table/${r.table}`;
    case 'index':
      return `table/${r.table}/index/${r.index}`;
    case 'bucket':
      return r.bucket;
    case 'object':
      return `${r.bucket}/${r.key}`;
    case 'pushApplication':
    case 'pushEndpoint':
      return r.arn;
    case 'mailIdentity':
      return `identity/${r.from}`;
    case 'secret':
      return `secret:${r.id}`;
    case 'parameter':
      return `parameter${r.name}`;
    case 'distribution':
      return `distribution/${r.id}`;
    case 'other':
      return r.name;
  }
};

export function accessDenied(service: AwsService, functionName: string, request: AwsRequest | string): Error {
  const { name, status } = DENIALS[service];
  const message =
    typeof request === 'string'
      ? request
      : `User: arn:aws:sts::000000000000:assumed-role/${functionName}/${functionName} is not authorized to perform: ${request.action} on resource: ${describe(request.resource)}${request.leadingKey ? ` (item ${request.leadingKey})` : ''} because no identity-based policy allows the ${request.action} action`;
  return Object.assign(new Error(message), {
    name,
    $fault: 'client',
    $metadata: { httpStatusCode: status, attempts: 1, totalRetryDelay: 0 },
  });
}

const isMissingObject = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * The hook the worker of one function installs: a middleware on each client refusing what the
 * function's statements do not allow, before the request leaves.
 */
export function accessGuard(functionName: string, declaration: FunctionAccess): AwsClientHook {
  const statements = accessStatements(declaration);
  const check = (service: AwsService, requests: AwsRequest[]) => {
    const names = localResourceNames();
    const denied = requests.find((r) => !allows(statements, r, names));
    if (denied) throw accessDenied(service, functionName, denied);
  };
  const canList = () =>
    allows(
      statements,
      { action: 's3:ListBucket', resource: { kind: 'bucket', bucket: localResourceNames().bucket } },
      localResourceNames(),
    );
  return {
    client(service: AwsService, client: HookableClient) {
      client.middlewareStack.add(
        (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: { input: any }) => {
          const command = context.commandName ?? '';
          check(service, requestsOf(service, command, args.input ?? {}));
          if (service !== 's3' || !/^(Get|Head)Object/.test(command)) return next(args);
          try {
            return await next(args);
          } catch (err) {
            // S3 hides whether an object exists from a caller that may not list the bucket.
            if (isMissingObject(err) && !canList()) throw accessDenied('s3', functionName, 'Access Denied');
            throw err;
          }
        },
        { step: 'initialize', name: 'localAccessGuard', priority: 'high' },
      );
    },
    standIn(service: AwsService, action: string, resource: string) {
      const request: AwsRequest =
        service === 'sns'
          ? { action, resource: { kind: 'pushEndpoint', arn: resource } }
          : service === 'ses'
            ? { action, resource: { kind: 'mailIdentity', from: resource } }
            : { action, resource: { kind: 'other', name: resource } };
      check(service, [request]);
    },
  };
}
