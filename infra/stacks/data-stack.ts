import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import {
  AttributeType,
  BillingMode,
  type ITable,
  Operation,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, type ILayerVersion, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { EXPORT_KEEP_DAYS, EXPORTS_PREFIX } from '../../shared/data-rights/export-document.ts';
import { JOBS_FAILED_METRIC } from '../../shared/data-rights/job-failure.ts';
import { tableDefinition } from '../../shared/db/table-definition.ts';
import { PENDING_UPLOADS_EXPIRE_DAYS, PENDING_UPLOADS_PREFIX } from '../../shared/storage/pending-uploads.ts';
import { builtLayerDir, externalLayers } from '../build/bundle.ts';
import { acknowledge } from '../constructs/acknowledge.ts';
import { allowAlarmPublishing, operatorAlarm, serviceMetricSum } from '../constructs/alarms.ts';
import { type DeployConfig, unreservedCapacity } from './config.ts';
import { parameterValue, resourceNames, secretArnByName } from './names.ts';
import { mailAddressOf, type SharedData } from './shared-data.ts';

/** The shared values, as a stack of the same account and region names them. */
export function sharedData(scope: Construct, config: DeployConfig): SharedData {
  const stack = Stack.of(scope);
  const n = resourceNames(config.prefix, scope, config.restoredTable?.name);
  return {
    tableName: n.table,
    tableArn: stack.formatArn({ service: 'dynamodb', resource: 'table', resourceName: n.table }),
    bucketName: n.bucket,
    bucketArn: `arn:${stack.partition}:s3:::${n.bucket}`,
    cursorSecretName: n.cursorSecret,
    cursorSecretArn: secretArnByName(scope, n.cursorSecret),
    grievanceSecretName: n.grievanceSecret,
    grievanceSecretArn: secretArnByName(scope, n.grievanceSecret),
    surveySecretName: n.surveySecret,
    surveySecretArn: secretArnByName(scope, n.surveySecret),
    notificationSecretName: n.notificationSecret,
    notificationSecretArn: secretArnByName(scope, n.notificationSecret),
    idempotencySecretName: n.idempotencySecret,
    idempotencySecretArn: secretArnByName(scope, n.idempotencySecret),
    avatarSecretName: n.avatarSecret,
    avatarSecretArn: secretArnByName(scope, n.avatarSecret),
    scimTokenName: n.scimToken,
    scimTokenArn: secretArnByName(scope, n.scimToken),
    oidcClientSecretName: n.oidcClientSecret,
    oidcClientSecretArn: secretArnByName(scope, n.oidcClientSecret),
    alarmTopicArn:
      config.alarmTopicArn ?? stack.formatArn({ service: 'sns', resource: n.alarmTopic, region: stack.region }),
    ...(config.adminEmail
      ? {
          adminPasswordSecretName: n.adminPasswordSecret,
          adminPasswordSecretArn: secretArnByName(scope, n.adminPasswordSecret),
        }
      : {}),
  };
}

/** The table's stream ARN, resolved by CloudFormation from the data stack's parameter at each deployment. */
export const tableStreamArn = (scope: Construct, config: DeployConfig) =>
  parameterValue(scope, resourceNames(config.prefix, scope, config.restoredTable?.name).tableStreamParameter);

/**
 * The layers the data stack publishes (by package), for a consuming stack: each version ARN read
 * from the data stack's parameter at deployment, one import per stack.
 */
export function layersFor(scope: Construct, config: DeployConfig, packages: string[]): Record<string, ILayerVersion> {
  const stack = Stack.of(scope);
  const names = resourceNames(config.prefix, scope, config.restoredTable?.name);
  const layers: Record<string, ILayerVersion> = {};
  for (const pkg of packages) {
    const id = `Layer${pkg.replace(/[^A-Za-z0-9]/g, '')}`;
    // Imported on first use, so a stack none of whose functions needs the layer holds no parameter for it.
    Object.defineProperty(layers, pkg, {
      enumerable: true,
      get: () =>
        (stack.node.tryFindChild(id) as ILayerVersion | undefined) ??
        LayerVersion.fromLayerVersionArn(stack, id, parameterValue(stack, names.layerParameter(pkg))),
    });
  }
  return layers;
}

/** The concurrency alarm fires at this share of the unreserved pool. */
export const CONCURRENCY_ALARM_SHARE = 0.8;

/** Days an overwritten or deleted media object stays restorable (a noncurrent version). */
export const MEDIA_NONCURRENT_DAYS = 30;
/**
 * A person's data export outlives its keeping period by a day at most: the worker erases each one
 * EXPORT_KEEP_DAYS after it is ready (shared/data-rights/export.ts); the bucket expires what a stopped
 * worker left (docs/people-data.md).
 */
export const EXPORTS_EXPIRE_DAYS = EXPORT_KEEP_DAYS + 1;
/** An export's overwritten or deleted versions are not kept for recovery: they are a person's data. */
export const EXPORTS_NONCURRENT_DAYS = 1;
/**
 * The whole lists' documents (shared/documents/whole-list.ts): rebuilt from the table at any time, so
 * their overwritten versions (which hold people's names and e-mail addresses, erased people's too)
 * go within a day, and a day's attendance document after a few days (only today's is read).
 */
export const DOCUMENTS_PREFIX = 'documents/';
export const DOCUMENTS_NONCURRENT_DAYS = 1;
export const ATTENDANCE_DOCUMENTS_EXPIRE_DAYS = 3;

/**
 * The bucket key prefixes the public Office Updates feed links to (shared/office-updates/public-view.ts):
 * post files with their renditions (`posts/<id>/...`) and avatars (`avatars/<key>`). The edge stack
 * serves each at the same path (`/<prefix>*`), so a media URL's path is the object key.
 */
export const PUBLIC_MEDIA_PREFIXES = ['posts/', 'avatars/'] as const;

export interface DataStackProps extends StackProps {
  config: DeployConfig;
  /** Layer folders by package (default: the built ones of `externalLayers`, infra/build/bundle.ts). */
  layerDirs?: Record<string, string>;
}

/**
 * The state of the service: the single DynamoDB table (from `shared/db/table-definition.ts`, the same
 * definition the local runtime creates its table from), the media bucket and the two application
 * secrets. Everything here is retained when the stack is deleted.
 */
export class DataStack extends Stack {
  readonly table: ITable;
  readonly bucket: Bucket;
  readonly cursorSecret: Secret;
  readonly grievanceSecret: Secret;
  readonly surveySecret: Secret;
  readonly notificationSecret: Secret;
  readonly idempotencySecret: Secret;
  readonly avatarSecret: Secret;
  readonly scimToken: Secret;
  readonly oidcClientSecret: Secret;
  /** The operators' topic: `workplace:alarmTopicArn`, or the one created here. */
  readonly alarmTopic: ITopic;
  readonly adminPasswordSecret?: Secret;
  readonly mailIdentity?: EmailIdentity;
  /** The values above, named (the other stacks build the same with `sharedData`). */
  readonly shared: SharedData;
  /** Lambda layers by the package they provide (only those whose folder is built). */
  readonly layers: Record<string, ILayerVersion> = {};

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config.prefix, this, config.restoredTable?.name);

    if (config.restoredTable) {
      // A point-in-time restore is a new table of another name (docs/deployment.md, "Restoring the
      // table"): served from here on, while the table this stack created stays (retained) for the
      // operator to delete. Its stream, TTL and recovery are set on it by hand: CloudFormation does not
      // own it.
      this.table = Table.fromTableAttributes(this, 'RestoredTable', {
        tableName: config.restoredTable.name,
        tableStreamArn: config.restoredTable.streamArn,
        globalIndexes: tableDefinition.indexes.map((index) => index.name),
      });
    } else {
      const table = new Table(this, 'Table', {
        tableName: names.table,
        partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
        sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
        billingMode: BillingMode.PAY_PER_REQUEST,
        stream: StreamViewType[tableDefinition.streamView],
        timeToLiveAttribute: tableDefinition.ttlAttribute,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
      for (const index of tableDefinition.indexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: { name: index.pk, type: AttributeType.STRING },
          sortKey: { name: index.sk, type: index.skType === 'N' ? AttributeType.NUMBER : AttributeType.STRING },
          projectionType: ProjectionType.ALL,
        });
      }
      this.table = table;
    }

    this.bucket = new Bucket(this, 'MediaBucket', {
      bucketName: names.bucket,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      // Browsers upload straight to the bucket with presigned PUT URLs from the web client's origins.
      cors: [
        {
          allowedMethods: [HttpMethods.PUT],
          allowedOrigins: config.allowedOrigins,
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
        // Presigned GETs of public media (when no CloudFront signing key is configured) may be used
        // by the website's scripts: any origin; S3 never sends credentials rights with '*'.
        {
          allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
          allowedOrigins: ['*'],
          allowedHeaders: ['range'],
          exposedHeaders: ['Content-Length', 'Content-Range', 'ETag'],
          maxAge: 600,
        },
      ],
      // Versions: an object overwritten or deleted by mistake (or by a bad release) can be restored.
      versioned: true,
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Old versions are for recovery, not for keeping: they go after MEDIA_NONCURRENT_DAYS, and
        // the delete markers left alone go with them.
        {
          id: 'expire-old-versions',
          noncurrentVersionExpiration: Duration.days(MEDIA_NONCURRENT_DAYS),
          expiredObjectDeleteMarker: true,
        },
        // Presigned uploads land here until a post attaches (and so verifies) them; one never
        // attached expires, so nobody fills the bucket with uploads that were never used. A PUT
        // repeated with the same URL (or a refused upload, whose record is gone, so no erasure can
        // find it) leaves overwritten versions: they go within the same day, not MEDIA_NONCURRENT_DAYS.
        {
          id: 'expire-pending-uploads',
          prefix: PENDING_UPLOADS_PREFIX,
          expiration: Duration.days(PENDING_UPLOADS_EXPIRE_DAYS),
          noncurrentVersionExpiration: Duration.days(PENDING_UPLOADS_EXPIRE_DAYS),
        },
        // People's data exports: a backstop behind the worker's own erasure, and none of their old
        // versions kept for MEDIA_NONCURRENT_DAYS (where rules overlap, S3 applies the shorter period).
        {
          id: 'expire-data-exports',
          prefix: EXPORTS_PREFIX,
          expiration: Duration.days(EXPORTS_EXPIRE_DAYS),
          noncurrentVersionExpiration: Duration.days(EXPORTS_NONCURRENT_DAYS),
        },
        // The whole lists' documents: derived copies, never kept for recovery.
        {
          id: 'expire-old-documents',
          prefix: DOCUMENTS_PREFIX,
          noncurrentVersionExpiration: Duration.days(DOCUMENTS_NONCURRENT_DAYS),
        },
        {
          id: 'expire-attendance-documents',
          prefix: `${DOCUMENTS_PREFIX}attendance-`,
          expiration: Duration.days(ATTENDANCE_DOCUMENTS_EXPIRE_DAYS),
        },
      ],
    });
    // The public feed's media, through the edge stack's distribution (origin access control, signed
    // URLs only): reads of the prefixes the feed links to (post files and renditions, avatars). The
    // distribution is created after this stack (it needs the API), so its ARN cannot be named here:
    // the condition admits CloudFront distributions of this account, and only those with an origin
    // access control for this bucket can sign requests at all.
    if (config.edge && config.mediaSigning) {
      this.bucket.addToResourcePolicy(
        new PolicyStatement({
          sid: 'PublicMediaThroughCloudFront',
          principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
          actions: ['s3:GetObject'],
          resources: PUBLIC_MEDIA_PREFIXES.map((prefix) => this.bucket.arnForObjects(`${prefix}*`)),
          conditions: {
            StringEquals: { 'AWS:SourceAccount': Aws.ACCOUNT_ID },
            ArnLike: { 'AWS:SourceArn': `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/*` },
          },
        }),
      );
    }
    acknowledge(
      this.bucket,
      'AwsSolutions-S1',
      'Objects are reached only through the API (presigned URLs it issues after its own checks), which logs every request; S3 server access logs would duplicate that. Enable CloudTrail data events if an object-level audit is needed.',
    );

    // Generated at first deploy and never rotated: the cursor secret seals paging cursors (rotation
    // would invalidate cursors in flight) and the grievance secret keys the hashes that link an
    // anonymous author to their grievances (rotation would break that link for good).
    const secret = (id: string, secretName: string, description: string) => {
      const s = new Secret(this, id, {
        secretName,
        description,
        generateSecretString: { passwordLength: 64, excludePunctuation: true },
        removalPolicy: RemovalPolicy.RETAIN,
      });
      acknowledge(
        s,
        'AwsSolutions-SMG4',
        'Static application key generated once: rotating it would invalidate cursors (cursor secret) or unlink anonymous grievance authors from their grievances (grievance secret).',
      );
      return s;
    };
    this.cursorSecret = secret(
      'CursorSecret',
      names.cursorSecret,
      'Seals the paging cursors the API hands out (CURSOR_SECRET).',
    );
    this.grievanceSecret = secret(
      'GrievanceSecret',
      names.grievanceSecret,
      'Keys the per-person, per-grievance hashes that keep grievance authors anonymous (GRIEVANCE_SECRET).',
    );
    this.surveySecret = secret(
      'SurveySecret',
      names.surveySecret,
      'Keys the tags and seals that keep survey answers apart from the people who gave them (SURVEY_SECRET; docs/surveys.md).',
    );
    this.notificationSecret = secret(
      'NotificationSecret',
      names.notificationSecret,
      'Seals the content of every notification at rest (NOTIFICATION_SECRET).',
    );
    this.idempotencySecret = secret(
      'IdempotencySecret',
      names.idempotencySecret,
      'Keys the tags of Idempotency-Key records and request fingerprints (IDEMPOTENCY_SECRET).',
    );
    this.avatarSecret = secret(
      'AvatarSecret',
      names.avatarSecret,
      'Keys the owner tag of avatar object keys, so a published key does not link back to a person (AVATAR_SECRET).',
    );
    this.scimToken = secret(
      'ScimToken',
      names.scimToken,
      'The bearer token of SCIM provisioning clients, Entra ID or Okta (SCIM_TOKEN; docs/scim.md).',
    );
    // A placeholder until the operator puts the identity provider's client secret in it (docs/sso.md).
    this.oidcClientSecret = secret(
      'OidcClientSecret',
      names.oidcClientSecret,
      "The identity provider's client secret for single sign-on, put here by the operator (OIDC_CLIENT_SECRET; docs/sso.md).",
    );

    if (config.adminEmail) {
      this.adminPasswordSecret = new Secret(this, 'AdminPassword', {
        secretName: names.adminPasswordSecret,
        description: `First password of the first super admin (${config.adminEmail}); change it after signing in.`,
        generateSecretString: { passwordLength: 24, excludePunctuation: true },
        removalPolicy: RemovalPolicy.RETAIN,
      });
      acknowledge(
        this.adminPasswordSecret,
        'AwsSolutions-SMG4',
        'Used once, when the deploy hook creates the first super admin; the person changes the password after signing in (the service keeps only its hash).',
      );
    }

    // Every alarm of the service notifies the operators' topic (subscribe on-call e-mail, chat or
    // paging to it), an existing one from context or this one.
    if (config.alarmTopicArn) {
      this.alarmTopic = Topic.fromTopicArn(this, 'AlarmTopic', config.alarmTopicArn);
    } else {
      const topic = new Topic(this, 'AlarmTopic', {
        topicName: names.alarmTopic,
        displayName: `${config.prefix} alarms`,
        enforceSSL: true,
      });
      allowAlarmPublishing(topic, config.prefix);
      acknowledge(
        topic,
        'AwsSolutions-SNS2',
        'Alarm notifications carry no personal data (alarm names and metric values); CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a customer managed key would cost more than the alarms.',
      );
      this.alarmTopic = topic;
    }
    if (config.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(config.alarmEmail));
    this.accountAlarms(config);

    // The sender of the service's e-mail: SES sends a verification message to the address at deploy.
    const mailAddress = config.mailFrom ? mailAddressOf(config.mailFrom) : undefined;
    if (mailAddress) {
      this.mailIdentity = new EmailIdentity(this, 'MailIdentity', { identity: Identity.email(mailAddress) });
    }

    // Packages the bundles leave out (sharp's native binary), as layers for the functions importing them.
    for (const pkg of Object.keys(externalLayers)) {
      const dir = props.layerDirs ? props.layerDirs[pkg] : builtLayerDir(pkg);
      if (!dir) continue;
      this.layers[pkg] = new LayerVersion(this, `${pkg.replace(/[^A-Za-z0-9]/g, '')}Layer`, {
        code: Code.fromAsset(dir),
        compatibleRuntimes: [Runtime.NODEJS_22_X],
        compatibleArchitectures: [Architecture.ARM_64],
        description: `${pkg} for linux-arm64 (${pkg} is left out of the function bundles)`,
      });
    }

    // The two values that cannot be named in advance, for the stacks that resolve them at deployment.
    new StringParameter(this, 'TableStreamArnParameter', {
      parameterName: names.tableStreamParameter,
      description: 'The table stream ARN, read by the background stack at deployment (no export).',
      stringValue: this.table.tableStreamArn!,
    });
    for (const [pkg, layer] of Object.entries(this.layers)) {
      new StringParameter(this, `${pkg.replace(/[^A-Za-z0-9]/g, '')}LayerParameter`, {
        parameterName: names.layerParameter(pkg),
        description: `The ${pkg} layer version ARN, read by the function stacks at deployment (no export).`,
        stringValue: layer.layerVersionArn,
      });
    }
    this.shared = sharedData(this, config);
    // For operators and scripts; no export: nothing imports them.
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topicArn });
  }

  /**
   * The alarms on what the whole service shares (docs/deployment.md, "Alarms"): the account's Lambda
   * concurrency, the table's throttled requests, failed background runs and the SES sending reputation.
   */
  private accountAlarms(config: DeployConfig) {
    const topicArn = this.alarmTopic.topicArn;
    // The routes throttle when the executions without a reservation use the account's unreserved
    // pool up, not at the account's quota: with 400 of 1,000 reserved for the stream, at 600.
    const capacity = unreservedCapacity(config);
    operatorAlarm(this, 'ConcurrencyAlarm', topicArn, {
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'UnreservedConcurrentExecutions',
        statistic: 'Maximum',
        period: Duration.minutes(1),
      }),
      threshold: Math.floor(capacity * CONCURRENCY_ALARM_SHARE),
      evaluationPeriods: 3,
      description: `Executions of the functions without a reservation at ${CONCURRENCY_ALARM_SHARE * 100} % of the unreserved pool (${capacity}: the quota of ${config.accountConcurrencyLimit} less ${config.streamReservedConcurrency} reserved for the stream and ${config.otherReservedConcurrency} by other functions) for 3 minutes: at the pool's end every route is throttled (API 5xx). Find the busy function (CloudWatch ConcurrentExecutions by function); request a higher quota and rerun the preflight, or lower workplace:streamReservedConcurrency.`,
    });
    operatorAlarm(this, 'TableThrottlesAlarm', topicArn, {
      metric: this.table.metricThrottledRequestsForOperations({
        operations: TABLE_OPERATIONS,
        period: Duration.minutes(5),
      }),
      threshold: 1,
      description:
        'DynamoDB throttled requests of the table (on demand: a partition above its per-key limit, or a sudden surge past the previous peak). Requests were retried and may have answered 503; look for a hot key in CloudWatch Contributor Insights.',
    });
    operatorAlarm(this, 'BackgroundFailuresAlarm', topicArn, {
      metric: serviceMetricSum('BackgroundFailures'),
      threshold: 1,
      description:
        'A background run failed (stream consumer batch, schedule run or the deploy hook; the BackgroundFailures metric of shared/observability/instrumented.ts). It is retried; the failed-batches, failed-runs and iterator-age alarms say whether it recovered. The functions of the Background stack log the error.',
    });
    operatorAlarm(this, 'MailFailuresAlarm', topicArn, {
      metric: serviceMetricSum('MailFailures'),
      threshold: 1,
      description:
        'SES refused to send an e-mail (MailFailures metric of shared/transports/email.ts): invitations and grievance reminders did not go out. Usual causes: the account is in the SES sandbox (only verified recipients), the sender identity (workplace:mailFrom) is not verified, or sending is paused. The sending function log has the SES error.',
    });
    operatorAlarm(this, 'DataRightsJobsFailedAlarm', topicArn, {
      metric: serviceMetricSum(JOBS_FAILED_METRIC),
      threshold: 1,
      description:
        "A data-rights job (a person's export or erasure) failed for good after its retries (DataRightsJobsFailed metric of shared/data-rights/work.ts); the other jobs went on. GET /admin/erasures/{id} or the export's GET says the step and the kind of failure; the data-rights-work log has the job id. A failed erasure keeps the person marked: fix the cause, then a super admin's DELETE /admin/members/{userId} re-queues it.",
    });
    const ses = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1) });
    operatorAlarm(this, 'MailBouncesAlarm', topicArn, {
      metric: ses('Reputation.BounceRate'),
      threshold: 0.05,
      description:
        "SES bounce rate of the account at 5 % (SES reviews the account from 5 % and may pause sending at 10 %): invitations go to addresses that do not exist. Check the members' e-mail addresses.",
    });
    operatorAlarm(this, 'MailComplaintsAlarm', topicArn, {
      metric: ses('Reputation.ComplaintRate'),
      threshold: 0.001,
      description:
        'SES complaint rate of the account at 0.1 % (SES reviews the account from 0.1 % and may pause sending at 0.5 %): recipients mark the service e-mail as spam.',
    });
  }
}

/** The DynamoDB operations the service calls (its throttled-requests alarm sums them; at most 10 metrics). */
export const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];
