import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { cfnText, METRICS_NAMESPACE, POWERTOOLS_SERVICE_NAME } from './naming.ts';

/** The operators' topic as an alarm action, one import per stack. */
export function alarmAction(scope: Construct, topicArn: string): SnsAction {
  const stack = Stack.of(scope);
  const id = 'AlarmTopicImport';
  const topic = (stack.node.tryFindChild(id) as ITopic | undefined) ?? Topic.fromTopicArn(stack, id, topicArn);
  return new SnsAction(topic);
}

/**
 * One of the service's own metrics (shared/observability/metrics.ts: the service's namespace and
 * dimension), summed over 5 minutes: what every alarm on a count the service emits watches, in either stack.
 */
export const serviceMetricSum = (metricName: string): Metric =>
  new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: POWERTOOLS_SERVICE_NAME },
    statistic: 'Sum',
    period: Duration.minutes(5),
  });

export interface OperatorAlarmProps {
  metric: IMetric;
  /** The alarm fires at or above this value. */
  threshold: number;
  /** What it means and what to do (shown in the notification; docs/deployment.md, "Alarms"). */
  description: string;
  /** Consecutive periods at the threshold before it fires (default 1). */
  evaluationPeriods?: number;
}

/**
 * One alarm of the service, notifying the operators' topic. Missing data (a quiet period) is not a
 * breach. Every alarm of the service is one of these, listed in docs/deployment.md with what to do.
 */
export function operatorAlarm(scope: Construct, id: string, topicArn: string, props: OperatorAlarmProps): Alarm {
  const alarm = new Alarm(scope, id, {
    metric: props.metric,
    threshold: props.threshold,
    evaluationPeriods: props.evaluationPeriods ?? 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: cfnText(props.description, 1024),
  });
  alarm.addAlarmAction(alarmAction(scope, topicArn));
  return alarm;
}

/**
 * Lets CloudWatch publish the alarms of this environment to the topic. A topic created with
 * `enforceSSL` gets a topic policy holding only the TLS rule, and that policy replaces SNS's default
 * one, so without this statement nothing may publish and every alarm reaches nobody. The condition
 * names the alarms by pattern (their names start with the prefix: CloudFormation names them after
 * their stack), not by ARN, so the topic needs nothing from the stacks deployed after it.
 */
export function allowAlarmPublishing(topic: ITopic, prefix: string): void {
  const stack = Stack.of(topic);
  topic.addToResourcePolicy(
    new PolicyStatement({
      sid: 'AlarmsPublish',
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': alarmArnPattern(stack, prefix) },
      },
    }),
  );
}

/** Every alarm of the environment, in the stack's region: CloudFormation names each `<stack name>-...`. */
export const alarmArnPattern = (stack: Stack, prefix: string) =>
  stack.formatArn({
    service: 'cloudwatch',
    resource: 'alarm',
    resourceName: `${prefix}-*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
