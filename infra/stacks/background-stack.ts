import { CustomResource, Duration, Stack, type StackProps, TimeZone } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { EventInvokeConfig, EventSourceMapping, StartingPosition } from 'aws-cdk-lib/aws-lambda';
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
import { DEFAULT_BACKGROUND_ACCESS, DEFAULT_BACKGROUND_TIMEOUT_SECONDS } from '../../shared/api/function-settings.ts';
import { MIGRATION_RUNNERS } from '../../shared/registry/migration-order.ts';
import { acknowledge, acknowledgeWildcards } from '../constructs/acknowledge.ts';
import { operatorAlarm } from '../constructs/alarms.ts';
import { cfnText } from '../constructs/naming.ts';
import { ServiceFunction, type ServiceFunctionProps } from '../constructs/route-function.ts';
import { pascal } from './area-routes-stack.ts';
import { type DeployConfig, PEOPLE_RETENTION_SCHEDULE, peopleRetentionEnvironment } from './config.ts';
import { layersFor, tableStreamArn } from './data-stack.ts';
import type { SharedData } from './shared-data.ts';

/** A failing batch is split (bisect) and retried this often before its position goes to the DLQ. */
export const STREAM_RETRY_ATTEMPTS = 5;
/**
 * A record not processed within this age goes (its position) to the on-failure queue instead of
 * holding its shard back; the stream keeps records 24 hours, so 23 hours remain to replay it.
 */
export const STREAM_MAX_RECORD_AGE = Duration.hours(1);
export const DEFAULT_STREAM_BATCH_SIZE = 100;
/** A stream consumer this far behind (the age of the last record it read) makes live updates late. */
export const ITERATOR_AGE_ALARM_MS = 60_000;
/** Lambda's retries of a failed asynchronous invocation (a schedule's run) before it goes to the failure queue. */
export const SCHEDULE_RETRY_ATTEMPTS = 2;
export const DEPLOY_HOOK_HANDLER = 'infra/handlers/deploy-hook.ts';
/** How long CloudFormation waits for the deploy hook's answer (its function times out at 60 s). */
export const DEPLOY_HOOK_SERVICE_TIMEOUT = Duration.minutes(5);

export interface BackgroundStackProps extends StackProps {
  consumers: StreamConsumer[];
  schedules: Schedule[];
  data: SharedData;
  config: DeployConfig;
  /** The packages the data stack publishes as layers. */
  layerPackages?: string[];
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
  /** Runs of a schedule that failed: not delivered by the scheduler, or failing every Lambda retry. */
  readonly scheduleFailures: Queue;
  readonly deployHook: ServiceFunction;

  constructor(scope: Construct, id: string, props: BackgroundStackProps) {
    super(scope, id, props);
    const { data, config } = props;
    const period = Duration.minutes(5);
    const layers = layersFor(this, config, props.layerPackages ?? []);
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
        layers,
        ...extra,
      });

    // What Lambda's poller needs on the stream, in the form AWS documents (the table's streams).
    const streamRead = new PolicyStatement({
      sid: 'StreamRead',
      actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
      resources: [`${data.tableArn}/stream/*`],
    });
    const streamArn = tableStreamArn(this, config);
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
        eventSourceArn: streamArn,
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
      operatorAlarm(fn, 'FailedBatchesAlarm', data.alarmTopicArn, {
        metric: dlq.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
        threshold: 1,
        description: `Stream batches that ${consumer.name} could not process after every retry: their positions are in the queue (inspect, fix, replay).`,
      });
      operatorAlarm(fn, 'IteratorAgeAlarm', data.alarmTopicArn, {
        metric: fn.function.metric('IteratorAge', { period, statistic: 'Maximum' }),
        threshold: ITERATOR_AGE_ALARM_MS,
        evaluationPeriods: 2,
        description: `${consumer.name} is more than ${ITERATOR_AGE_ALARM_MS / 1000} s behind the table's stream for 10 minutes (errors retried, throttled, or too slow): live updates are late. Check its log group and the concurrency alarm.`,
      });
      this.consumers.push({ consumer, service: fn, mapping, dlq });
    }

    // One role for EventBridge Scheduler to invoke the schedule functions (granted per function below).
    const schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
      description: 'Lets EventBridge Scheduler invoke the service schedule functions.',
    });
    // One queue for every failed schedule run: runs the scheduler could not deliver (its dead-letter
    // queue) and runs whose function failed every retry (the function's asynchronous on-failure
    // destination: the scheduler invokes asynchronously, so a function error is not a delivery error).
    this.scheduleFailures = new Queue(this, 'ScheduleFailures', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(
      this.scheduleFailures,
      'AwsSolutions-SQS3',
      'This queue is itself the dead-letter queue of the schedules and the on-failure destination of their functions.',
    );
    operatorAlarm(this.scheduleFailures, 'Alarm', data.alarmTopicArn, {
      metric: this.scheduleFailures.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      threshold: 1,
      description:
        'A scheduled sweep (presence, birthdays, poll closing) failed every retry or was not delivered: the failed runs are in the queue; the function log group has the error. The next run catches up.',
    });
    const failureDestination = this.scheduleFailures.queueArn;
    for (const schedule of props.schedules) {
      const expression = scheduleExpression(schedule, config.companyTimezone);
      const fn = service(schedule.name, schedule.handler, `Schedule ${schedule.name}`, schedule, {
        environment:
          schedule.name === PEOPLE_RETENTION_SCHEDULE
            ? peopleRetentionEnvironment(config.peopleRetentionDays)
            : undefined,
        statements: [
          {
            statement: new PolicyStatement({
              sid: 'FailedRuns',
              actions: ['sqs:SendMessage'],
              resources: [failureDestination],
            }),
          },
        ],
      });
      // The destination is granted in the function's own policy above, not by CDK's SqsDestination.
      new EventInvokeConfig(fn, 'AsyncInvoke', {
        function: fn.function,
        retryAttempts: SCHEDULE_RETRY_ATTEMPTS,
        onFailure: { bind: () => ({ destination: failureDestination }) },
      });
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
          deadLetterQueue: this.scheduleFailures,
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
    // The first admin's password stays in Secrets Manager: the hook reads it at run time.
    const adminPassword = config.adminEmail ? data.adminPasswordSecretArn : undefined;
    const adminPasswordName = config.adminEmail ? data.adminPasswordSecretName : undefined;
    // The deploy hook starts the migrations by invoking their functions asynchronously (each pages its
    // own within its 15 minutes; the schedules carry on), so the hook never holds CloudFormation.
    const migrations = MIGRATION_RUNNERS.map(
      (name) => this.schedules.find((s) => s.schedule.name === name)!.service.function,
    );
    const startMigrations = {
      statement: new PolicyStatement({
        sid: 'StartMigrations',
        actions: ['lambda:InvokeFunction'],
        resources: migrations.map((f) => f.functionArn),
      }),
    };
    this.deployHook = service(
      'deploy-hook',
      DEPLOY_HOOK_HANDLER,
      'Deploy hook: starts a new change-feed epoch, creates the first super admin when none exists, starts the migrations.',
      { access: { table: 'write' }, timeout: 60 },
      {
        environment: {
          MIGRATIONS_FUNCTION_NAMES: migrations.map((f) => f.functionName).join(','),
          ...(adminPassword ? { ADMIN_EMAIL: config.adminEmail!, ADMIN_PASSWORD_SECRET_ARN: adminPasswordName! } : {}),
        },
        statements: [
          startMigrations,
          ...(adminPassword
            ? [
                {
                  statement: new PolicyStatement({
                    sid: 'AdminPassword',
                    actions: ['secretsmanager:GetSecretValue'],
                    resources: [adminPassword],
                  }),
                },
              ]
            : []),
        ],
      },
    );
    new CustomResource(this, 'DeployHookRun', {
      serviceToken: this.deployHook.function.functionArn,
      // A hook that crashes before answering would otherwise hold the stack for CloudFormation's
      // default hour; a little more than the function's own 60 s is enough for it to answer.
      serviceTimeout: DEPLOY_HOOK_SERVICE_TIMEOUT,
      resourceType: 'Custom::DeployHook',
      properties: { deployedAt: new Date().toISOString(), version: config.serviceVersion },
    });
  }

  /** Every function of this stack. */
  get services(): ServiceFunction[] {
    return [...this.consumers.map((c) => c.service), ...this.schedules.map((s) => s.service), this.deployHook];
  }
}
