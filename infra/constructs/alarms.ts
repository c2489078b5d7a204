import { Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { cfnText } from './route-function.ts';

/** The operators' topic as an alarm action, one import per stack. */
export function alarmAction(scope: Construct, topicArn: string): SnsAction {
  const stack = Stack.of(scope);
  const id = 'AlarmTopicImport';
  const topic = (stack.node.tryFindChild(id) as ITopic | undefined) ?? Topic.fromTopicArn(stack, id, topicArn);
  return new SnsAction(topic);
}

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
