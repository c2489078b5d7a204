import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { alarmAction } from '../constructs/route-function.ts';
import type { DeployConfig } from './config.ts';

export interface ApiStackProps extends StackProps {
  config: DeployConfig;
  /** The alarm topic (the data stack's named export). */
  alarmTopicArn: string;
}

/**
 * The HTTP API (payload format 2.0) and its `$default` stage. Routes are added by the per-area stacks
 * (`AreaRoutesStack`), so this stack stays small however many routes the service grows. No CORS
 * configuration on the API: preflights fall through to the `$default` route, whose function answers
 * them from ALLOWED_ORIGINS, and every function adds the CORS headers to its own answers.
 */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${config.prefix}-api`,
      description: 'Workplace collaboration service API (one Lambda function per route).',
      createDefaultStage: false,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: config.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // No caller address, user agent or identity: the grievance routes must not be linkable to a person.
    const format = AccessLogFormat.custom(
      JSON.stringify({
        requestId: '$context.requestId',
        time: '$context.requestTime',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latencyMs: '$context.responseLatency',
        integrationLatencyMs: '$context.integrationLatency',
        responseLength: '$context.responseLength',
        integrationError: '$context.integrationErrorMessage',
      }),
    );
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format },
    });

    // Any 5xx answer: an unhandled error in a function, or an integration failure (timeout, throttle).
    new Alarm(this, 'ServerErrorsAlarm', {
      metric: this.httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: 'The HTTP API answered 5xx.',
    }).addAlarmAction(alarmAction(this, props.alarmTopicArn));

    new CfnOutput(this, 'ApiUrl', {
      value: this.httpApi.apiEndpoint,
      description: 'The HTTP API itself (clients use the distribution: the BaseUrl of the edge stack).',
    });
  }
}
