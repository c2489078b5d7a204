import { ArnFormat, Stack } from 'aws-cdk-lib';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';

/**
 * The physical names of what the stacks share, derived from the environment's prefix alone.
 *
 * No stack exports a value another stack imports: CloudFormation refuses to change or remove an
 * export while another stack imports it, so a changed setting (another alarm topic, a secret no
 * longer created) would wedge the data stack's update. A consumer builds the ARN from the name in
 * its own stack instead; the only value that cannot be named in advance, the table's stream ARN
 * (its label is a timestamp), is an SSM parameter the consumer resolves at each deployment. Two
 * environments of one account differ by their prefix, so their names never collide.
 */
export interface ResourceNames {
  table: string;
  /** Globally unique (S3): the account and region are part of it. */
  bucket: string;
  cursorSecret: string;
  grievanceSecret: string;
  surveySecret: string;
  notificationSecret: string;
  idempotencySecret: string;
  avatarSecret: string;
  scimToken: string;
  oidcClientSecret: string;
  adminPasswordSecret: string;
  alarmTopic: string;
  /** SSM parameter holding the table's stream ARN. */
  tableStreamParameter: string;
  /** SSM parameter holding the sharp layer's version ARN (a new version at every change of the layer). */
  layerParameter: (pkg: string) => string;
}

/** `restoredTable`: the name of a table restored from a backup, served instead of `<prefix>-table`. */
export function resourceNames(prefix: string, scope: Construct, restoredTable?: string): ResourceNames {
  const stack = Stack.of(scope);
  return {
    table: restoredTable ?? `${prefix}-table`,
    bucket: `${prefix.toLowerCase()}-media-${stack.account}-${stack.region}`,
    cursorSecret: `${prefix}/cursor-secret`,
    grievanceSecret: `${prefix}/grievance-secret`,
    surveySecret: `${prefix}/survey-secret`,
    notificationSecret: `${prefix}/notification-secret`,
    idempotencySecret: `${prefix}/idempotency-secret`,
    avatarSecret: `${prefix}/avatar-secret`,
    scimToken: `${prefix}/scim-token`,
    oidcClientSecret: `${prefix}/oidc-client-secret`,
    adminPasswordSecret: `${prefix}/admin-password`,
    alarmTopic: `${prefix}-alarms`,
    tableStreamParameter: `/${prefix}/table-stream-arn`,
    layerParameter: (pkg) => `/${prefix}/layers/${pkg.replace(/[^A-Za-z0-9_.-]/g, '')}`,
  };
}

/**
 * Any version of a secret given by name: Secrets Manager appends `-` and six random characters to
 * the name in the ARN.
 */
export const secretArnByName = (scope: Construct, name: string) =>
  Stack.of(scope).formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    resourceName: `${name}-??????`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });

/** A plain SSM String parameter, read by CloudFormation at each deployment of the consuming stack. */
export const parameterValue = (scope: Construct, name: string) => StringParameter.valueForStringParameter(scope, name);
