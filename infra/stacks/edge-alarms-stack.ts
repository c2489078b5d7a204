import { Duration, Stack, type StackProps, Token } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { acknowledge } from '../constructs/acknowledge.ts';
import { allowAlarmPublishing, operatorAlarm } from '../constructs/alarms.ts';
import type { DeployConfig } from './config.ts';

/** CloudFront publishes its metrics in this region only. */
export const EDGE_METRICS_REGION = 'us-east-1';
/** Share of the distribution's answers that are 5xx, in percent, two five-minute periods running. */
export const EDGE_5XX_RATE_PERCENT = 5;

/** The distribution's 5xx alarm (in a stack of us-east-1). */
export function distributionErrorsAlarm(scope: Construct, distributionId: string, topicArn: string) {
  return operatorAlarm(scope, 'Distribution5xxAlarm', topicArn, {
    metric: new Metric({
      namespace: 'AWS/CloudFront',
      metricName: '5xxErrorRate',
      dimensionsMap: { DistributionId: distributionId, Region: 'Global' },
      statistic: 'Average',
      period: Duration.minutes(5),
    }),
    threshold: EDGE_5XX_RATE_PERCENT,
    evaluationPeriods: 2,
    description: `${EDGE_5XX_RATE_PERCENT} % or more of the distribution's answers were 5xx for 10 minutes: the HTTP API or the stream's Function URL fails or cannot be reached (502/504 come from CloudFront itself). Compare with the API 5xx alarm and the functions' logs.`,
  });
}

export interface EdgeAlarmsStackProps extends StackProps {
  config: DeployConfig;
  /** The edge stack's distribution (read across regions at deploy time). */
  distributionId: string;
}

/**
 * The CloudFront alarms, in us-east-1 when the service is deployed elsewhere. An alarm notifies a topic
 * of its own region: the operators' topic (`workplace:alarmTopicArn`) when that is in us-east-1,
 * otherwise a topic created here with the same e-mail subscription.
 */
export class EdgeAlarmsStack extends Stack {
  readonly topicArn: string;

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, props);
    const { config } = props;
    const given = config.alarmTopicArn;
    const givenRegion = given && !Token.isUnresolved(given) ? given.split(':')[3] : undefined;
    if (given && givenRegion === EDGE_METRICS_REGION) {
      this.topicArn = given;
    } else {
      const topic = new Topic(this, 'AlarmTopic', {
        displayName: `${config.prefix} edge alarms`,
        enforceSSL: true,
      });
      allowAlarmPublishing(topic, config.prefix);
      acknowledge(
        topic,
        'AwsSolutions-SNS2',
        'Alarm notifications carry no personal data (alarm names and metric values); CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key.',
      );
      if (config.alarmEmail) topic.addSubscription(new EmailSubscription(config.alarmEmail));
      this.topicArn = topic.topicArn;
    }
    distributionErrorsAlarm(this, props.distributionId, this.topicArn);
  }
}
