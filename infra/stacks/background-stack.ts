import { CustomResource, Duration, SecretValue, Stack, type StackProps, TimeZone } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping, type ILayerVersion, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import {
  ContextAttribute,
  Schedule as EventBridgeSchedule,
  ScheduleExpression,
  ScheduleTargetInput,
} from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { BackgroundFunctionSettings, Schedule, StreamConsumer } from '../../shared/api/background.ts';
import type { RouteAccess } from '../../shared/api/route-def.ts';
import { acknowledge, acknowledgeWildcards } from '../constructs/acknowledge.ts';
import { alarmAction, cfnText, ServiceFunction, type ServiceFunctionProps } from '../constructs/route-function.ts';
import { pascal } from './area-routes-stack.ts';
import type { DeployConfig } from './config.ts';
import type { SharedData } from './data-stack.ts';

/** Every background function records what it did (shared/api/background.ts). */
export const DEFAULT_BACKGROUND_ACCESS: RouteAccess = { table: 'write' };
export const DEFAULT_BACKGROUND_TIMEOUT_SECONDS = 60;
/** A failing batch is split (bisect) and retried this often before its position goes to the DLQ. */
export const STREAM_RETRY_ATTEMPTS = 5;
/**
 * A record not processed within this age goes (its position) to the on-failure queue instead of
 * holding its shard back; the stream keeps records 24 hours, so 23 hours remain to replay it.
 */
export const STREAM_MAX_RECORD_AGE = Duration.hours(1);
export const DEFAULT_STREAM_BATCH_SIZE = 100;
export const DEPLOY_HOOK_HANDLER = 'infra/handlers/deploy-hook.ts';

export interface BackgroundStackProps extends StackProps {
  consumers: StreamConsumer[];
  schedules: Schedule[];
  data: SharedData;
  config: DeployConfig;
  layers?: Record<string, ILayerVersion>;
}

/** `everySeconds` → `rate(N minutes)`; `dailyAt: 'HH:MM'` → a daily cron in the company's timezone. */
export function scheduleExpression(schedule: Schedule, timeZone: string): ScheduleExpression {
  if (!!schedule.everySeconds === !!schedule.dailyAt) {
    throw new Error(`Schedule ${schedule.name}: give exactly one of everySeconds and dailyAt`);
  }
  if (schedule.everySeconds) {
    if (schedule.everySeconds < 60 || schedule.everySeconds % 60 !== 0) {
      throw new Error(`Schedule ${schedule.name}: everySeconds must be a whole number of minutes (EventBridge rates)`);
    }
    return ScheduleExpression.rate(Duration.minutes(schedule.everySeconds / 60));
  }
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(schedule.dailyAt!);
  if (!m) throw new Error(`Schedule ${schedule.name}: dailyAt must be HH:MM, got ${schedule.dailyAt}`);
  return ScheduleExpression.cron({
    minute: String(Number(m[2])),
    hour: String(Number(m[1])),
    timeZone: TimeZone.of(timeZone),
  });
}

/**
 * The functions that are not routes, from `shared/api/background.ts`:
 * - each stream consumer: a function fed by an event source mapping on the table's stream, with the
 *   consumer's filter patterns as Lambda filter criteria (records that match none never invoke it),
 *   bisect-on-error, bounded retries and an SQS queue receiving the position of batches that still fail;
 * - each schedule: a function invoked by an EventBridge Scheduler schedule (a rate, or a daily cron in
 *   the company's timezone);
 * - the deploy hook (infra/handlers/deploy-hook.ts): a custom resource run on every deployment.
 * Every function gets the same treatment as a route's (ServiceFunction: own role, logs, alarms).
 */
export class BackgroundStack extends Stack {
  readonly consumers: {
    consumer: StreamConsumer;
    service: ServiceFunction;
    mapping: EventSourceMapping;
    dlq: Queue;
  }[] = [];
  readonly schedules: { schedule: Schedule; service: ServiceFunction; target: EventBridgeSchedule }[] = [];
  readonly deployHook: ServiceFunction;

  constructor(scope: Construct, id: string, props: BackgroundStackProps) {
    super(scope, id, props);
    const { data, config } = props;
    const action = alarmAction(this, data.alarmTopicArn);
    const service = (
      name: string,
      handler: string,
      description: string,
      settings: BackgroundFunctionSettings,
      extra: Partial<ServiceFunctionProps> = {},
    ) =>
      new ServiceFunction(this, pascal(name), {
        handler,
        description: cfnText(description, 256),
        access: settings.access ?? DEFAULT_BACKGROUND_ACCESS,
        timeoutSeconds: settings.timeout ?? DEFAULT_BACKGROUND_TIMEOUT_SECONDS,
        memoryMb: settings.memory,
        data,
        config,
        layers: props.layers,
        ...extra,
      });

    // What Lambda's poller needs on the stream, in the form AWS documents (the table's streams).
    const streamRead = new PolicyStatement({
      sid: 'StreamRead',
      actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
      resources: [`${data.tableArn}/stream/*`],
    });
    for (const consumer of props.consumers) {
      const fn = service(consumer.name, consumer.handler, `Stream consumer ${consumer.name}`, consumer, {
        statements: [
          {
            statement: streamRead,
            wildcardReason:
              "The streams of the service's one table (stream labels change when the stream is re-enabled); the form AWS documents for Lambda stream consumers.",
          },
        ],
      });
      const dlq = new Queue(fn, 'FailedBatches', {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      acknowledge(
        dlq,
        'AwsSolutions-SQS3',
        'This queue is itself the on-failure destination of a stream mapping; it receives the positions of batches that failed every retry, to inspect and replay while the stream still holds them (24 hours).',
      );
      const mapping = new EventSourceMapping(fn, 'StreamMapping', {
        target: fn.function,
        eventSourceArn: data.tableStreamArn,
        startingPosition: StartingPosition.LATEST,
        batchSize: consumer.batchSize ?? DEFAULT_STREAM_BATCH_SIZE,
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        // Consumers may answer a partial batch response (the change feed does); one that returns nothing succeeded.
        reportBatchItemFailures: true,
        maxRecordAge: STREAM_MAX_RECORD_AGE,
        onFailure: new SqsDlq(dlq),
        filters: consumer.filters.map((pattern) => ({ pattern: JSON.stringify(pattern) })),
      });
      new Alarm(fn, 'FailedBatchesAlarm', {
        metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `Stream batches that ${consumer.name} could not process (positions in the queue).`,
      }).addAlarmAction(action);
      this.consumers.push({ consumer, service: fn, mapping, dlq });
    }

    // One role for EventBridge Scheduler to invoke the schedule functions (granted per function below).
    const schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
      description: 'Lets EventBridge Scheduler invoke the service schedule functions.',
    });
    for (const schedule of props.schedules) {
      const expression = scheduleExpression(schedule, config.companyTimezone);
      const fn = service(schedule.name, schedule.handler, `Schedule ${schedule.name}`, schedule);
      const target = new EventBridgeSchedule(fn, 'Schedule', {
        schedule: expression,
        description: `${schedule.name} (${schedule.everySeconds ? `every ${schedule.everySeconds} s` : `daily at ${schedule.dailyAt} ${config.companyTimezone}`})`,
        target: new LambdaInvoke(fn.function, {
          role: schedulerRole,
          // The shape of an EventBridge scheduled event, as the local runtime's timers send it.
          input: ScheduleTargetInput.fromObject({
            'detail-type': 'Scheduled Event',
            source: 'aws.scheduler',
            time: ContextAttribute.scheduledTime,
            resources: [ContextAttribute.scheduleArn],
            detail: {},
          }),
          retryAttempts: 2,
          maxEventAge: Duration.minutes(schedule.everySeconds ? 5 : 60),
        }),
      });
      // LambdaInvoke grants the function and its versions (`<arn>:*`): CDK's grantInvoke.
      acknowledgeWildcards(
        schedulerRole,
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [`${fn.function.functionArn}:*`] }),
        'Versions and aliases of this one schedule function (aws-scheduler-targets grants the function ARN and ARN:*).',
      );
      this.schedules.push({ schedule, service: fn, target });
    }

    // The deploy hook: new change-feed epoch, first super admin. `deployedAt` changes on every
    // synthesis, so every deployment of this stack calls it (after the route stacks, see buildApp).
    const adminEnvironment: Record<string, string> =
      config.adminEmail && data.adminPasswordSecretArn
        ? {
            ADMIN_EMAIL: config.adminEmail,
            ADMIN_PASSWORD: SecretValue.secretsManager(data.adminPasswordSecretArn).unsafeUnwrap(),
          }
        : {};
    this.deployHook = service(
      'deploy-hook',
      DEPLOY_HOOK_HANDLER,
      'Deploy hook: starts a new change-feed epoch and creates the first super admin when none exists.',
      { access: { table: 'write' }, timeout: 60 },
      { environment: adminEnvironment },
    );
    new CustomResource(this, 'DeployHookRun', {
      serviceToken: this.deployHook.function.functionArn,
      resourceType: 'Custom::DeployHook',
      properties: { deployedAt: new Date().toISOString(), version: config.serviceVersion },
    });
  }

  /** Every function of this stack. */
  get services(): ServiceFunction[] {
    return [...this.consumers.map((c) => c.service), ...this.schedules.map((s) => s.service), this.deployHook];
  }
}
