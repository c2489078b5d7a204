import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEPLOY_HOOK_SERVICE_TIMEOUT } from '../../infra/stacks/background-stack.ts';
import { PEOPLE_RETENTION_SCHEDULE } from '../../infra/stacks/config.ts';
import {
  CONCURRENCY_ALARM_SHARE,
  EXPORTS_EXPIRE_DAYS,
  EXPORTS_NONCURRENT_DAYS,
  MEDIA_NONCURRENT_DAYS,
} from '../../infra/stacks/data-stack.ts';
import { schedules } from '../../shared/api/background.ts';
import { EXPORT_KEEP_DAYS } from '../../shared/data-rights/export-document.ts';
import { JOBS_FAILED_METRIC } from '../../shared/data-rights/job-failure.ts';
import { FULL_CONTEXT, resourcesOf, SYNTH_TIMEOUT, type Synthesized, synthesize } from './synth.ts';

/** Alarms that reach someone on the numbers that matter (item 3), and recovery (item 5). */
let s: Synthesized;
const t = (suffix: string): Template => s.templates.get(`${s.built.config.prefix}-${suffix}`)!;
beforeAll(async () => {
  s = await synthesize({}, { cfnValidation: false, context: FULL_CONTEXT });
}, SYNTH_TIMEOUT);

/** The topic policy's statements of the one topic a template creates. */
const topicStatements = (template: Template) => {
  const policies = resourcesOf(template, 'AWS::SNS::TopicPolicy');
  expect(policies).toHaveLength(1);
  return policies[0][1].Properties!.PolicyDocument.Statement as any[];
};

describe('alarms reach someone', () => {
  it.each(['Data', 'EdgeAlarms'])(
    "the %s topic lets CloudWatch publish this environment's alarms, beside the TLS rule",
    (stack) => {
      const statements = topicStatements(t(stack));
      // The TLS rule enforceSSL adds, which replaced SNS's default policy.
      expect(
        statements.some((st) => st.Effect === 'Deny' && st.Condition?.Bool?.['aws:SecureTransport'] === 'false'),
      ).toBe(true);
      const allow = statements.find((st) => st.Sid === 'AlarmsPublish');
      expect(allow).toMatchObject({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
      });
      const region = stack === 'EdgeAlarms' ? 'us-east-1' : 'eu-west-1';
      expect(JSON.stringify(allow.Condition.ArnLike['aws:SourceArn'])).toContain(
        `:cloudwatch:${region}:123456789012:alarm:${s.built.config.prefix}-*`,
      );
      // Conditioned by pattern, so the topic depends on no alarm of a later stack.
      expect(JSON.stringify(allow)).not.toContain('Fn::GetAtt');
    },
  );

  it('every alarm of every stack notifies the topic whose policy admits it', () => {
    const prefix = s.built.config.prefix;
    for (const [name, template] of s.templates) {
      for (const [id, alarm] of resourcesOf(template, 'AWS::CloudWatch::Alarm')) {
        expect(alarm.Properties!.AlarmActions, `${name}/${id}`).toHaveLength(1);
        // Unnamed: CloudFormation names it `<stack name>-<id>-...`, which the policy's pattern admits.
        expect(alarm.Properties!.AlarmName, `${name}/${id}`).toBeUndefined();
        expect(name.startsWith(`${prefix}-`)).toBe(true);
      }
    }
  });

  it('watches the unreserved pool the routes share, against the real quota less the reservations', () => {
    const { config } = s.built;
    const [[, alarm]] = resourcesOf(t('Data'), 'AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties!.MetricName === 'UnreservedConcurrentExecutions',
    );
    const pool = config.accountConcurrencyLimit - config.otherReservedConcurrency - config.streamReservedConcurrency;
    expect(pool).toBe(600);
    expect(alarm.Properties!.Threshold).toBe(Math.floor(pool * CONCURRENCY_ALARM_SHARE));
    expect(alarm.Properties!.Namespace).toBe('AWS/Lambda');
  });

  it('alarms on mail SES refuses', () => {
    t('Data').hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'MailFailures',
      Namespace: 'Workplace',
      Threshold: 1,
    });
  });

  it('alarms on data-rights jobs that failed for good (the metric the worker emits)', () => {
    const [[, alarm]] = resourcesOf(t('Data'), 'AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties!.MetricName === JOBS_FAILED_METRIC,
    );
    expect(JOBS_FAILED_METRIC).toBe('DataRightsJobsFailed');
    expect(alarm.Properties).toMatchObject({
      Namespace: 'Workplace',
      Dimensions: [{ Name: 'service', Value: 'workplace' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarm.Properties!.AlarmActions).toBeDefined();
  });

  it("watches the stream function's ceiling: throttles, and open streams near the reservation", () => {
    t('Routes-Realtime').hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'Throttles', Threshold: 1 });
    t('Routes-Realtime').hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ConcurrentExecutions',
      Statistic: 'Maximum',
      Threshold: Math.ceil(s.built.config.streamReservedConcurrency * 0.8),
    });
  });

  it("leaves the stream cap's 503s out of the 5xx alarm, and keeps every other 503 in", () => {
    const [[, alarm]] = resourcesOf(t('Api'), 'AWS::CloudWatch::Alarm');
    const metrics = alarm.Properties!.Metrics as any[];
    const names = metrics.map((m) => m.MetricStat?.Metric.MetricName).filter(Boolean);
    expect(names.sort()).toEqual(['5xx', 'DependencyUnavailable', 'ServerErrors']);
    expect(JSON.stringify(metrics)).not.toContain('CapacityRefused');
    // The larger of the API's own 5xx count and the functions' answered 5xx (dependency and deadline 503s in).
    const expression = metrics.find((m) => m.Expression).Expression as string;
    expect(expression).toBe('MAX([FILL(api5xx, 0), FILL(bugs, 0) + FILL(unavailable, 0)])');
    expect(alarm.Properties!.Threshold).toBe(1);
  });
});

describe("people's data retention", () => {
  it('gives PEOPLE_RETENTION_DAYS to the people-retention schedule only, when workplace:peopleRetentionDays is set', () => {
    const retention = schedules.find((x) => x.name === PEOPLE_RETENTION_SCHEDULE)!;
    const functions = [...s.templates.values()].flatMap((template) => resourcesOf(template, 'AWS::Lambda::Function'));
    const carrying = functions.filter(([, fn]) => fn.Properties?.Environment?.Variables?.PEOPLE_RETENTION_DAYS);
    expect(carrying).toHaveLength(1);
    const [[, fn]] = carrying;
    expect(fn.Properties!.Environment.Variables.PEOPLE_RETENTION_DAYS).toBe(
      FULL_CONTEXT['workplace:peopleRetentionDays'],
    );
    expect(fn.Properties!.Description).toBe(`Schedule ${retention.name}`);
    expect(fn.Metadata?.['aws:asset:path']).toContain(retention.handler.replace(/\.ts$/, ''));
  });
});

describe('recovery', () => {
  it("keeps the media bucket's versions, and lets old ones go", () => {
    const [[, bucket]] = resourcesOf(t('Data'), 'AWS::S3::Bucket');
    expect(bucket.Properties!.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties!.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Status: 'Enabled',
          NoncurrentVersionExpiration: { NoncurrentDays: MEDIA_NONCURRENT_DAYS },
          ExpiredObjectDeleteMarker: true,
        }),
      ]),
    );
  });

  it("expires people's data exports a day after the worker erases them, and keeps none of their old versions", () => {
    const [[, bucket]] = resourcesOf(t('Data'), 'AWS::S3::Bucket');
    const rules = bucket.Properties!.LifecycleConfiguration.Rules as any[];
    expect(rules.filter((r) => r.Prefix === 'exports/')).toEqual([
      {
        Id: 'expire-data-exports',
        Status: 'Enabled',
        Prefix: 'exports/',
        ExpirationInDays: EXPORTS_EXPIRE_DAYS,
        NoncurrentVersionExpiration: { NoncurrentDays: EXPORTS_NONCURRENT_DAYS },
      },
    ]);
    // A backstop behind the worker (shared/data-rights/export.ts erases each export EXPORT_KEEP_DAYS after it is ready).
    expect(EXPORTS_EXPIRE_DAYS).toBe(EXPORT_KEEP_DAYS + 1);
    expect(EXPORTS_NONCURRENT_DAYS).toBe(1);
  });

  it('gives the deploy hook a service timeout, so a crash does not hold the stack for an hour', () => {
    const [[, hook]] = resourcesOf(t('Background'), 'Custom::DeployHook');
    expect(Number(hook.Properties!.ServiceTimeout)).toBe(DEPLOY_HOOK_SERVICE_TIMEOUT.toSeconds());
    expect(DEPLOY_HOOK_SERVICE_TIMEOUT.toSeconds()).toBeLessThan(3600);
  });

  it('names everything per environment, the reservation included', () => {
    t('Data').hasResourceProperties('AWS::DynamoDB::Table', { TableName: 'Workplace-table' });
    t('Data').hasResourceProperties('AWS::SNS::Topic', { TopicName: 'Workplace-alarms' });
    t('Data').hasResourceProperties('AWS::S3::Bucket', { BucketName: 'workplace-media-123456789012-eu-west-1' });
    t('Routes-Realtime').hasResourceProperties('AWS::Lambda::Function', {
      ReservedConcurrentExecutions: s.built.config.streamReservedConcurrency,
    });
  });
});
