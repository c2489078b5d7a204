import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { ApiMapping, DomainName, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { operatorAlarm, serviceMetricSum } from '../constructs/alarms.ts';
import type { DeployConfig } from './config.ts';

export interface ApiStackProps extends StackProps {
  config: DeployConfig;
  /** The alarm topic (the data stack's named export). */
  alarmTopicArn: string;
}

/**
 * The HTTP API (payload format 2.0) and its `$default` stage, throttled (`workplace:apiRateLimit`,
 * `workplace:apiBurstLimit`) so a flood of requests is refused at the stage rather than taking every
 * Lambda execution of the account.
 *
 * With a custom domain and `workplace:apiCertificateArn` (a certificate for the same name in this
 * region), the API gets that name as a regional custom domain and its default execute-api endpoint is
 * disabled: CloudFront reaches the custom domain's regional endpoint and forwards the viewer's Host,
 * which is the one name API Gateway answers for (TLS SNI and Host both carry it), so the distribution
 * is the only way in. Without it, the execute-api endpoint is CloudFront's origin and stays enabled
 * (warned at synthesis); with `workplace:edge=false` (LocalStack) it is the API's only address. Routes are added by the per-area stacks
 * (`AreaRoutesStack`), so this stack stays small however many routes the service grows. No CORS
 * configuration on the API: preflights fall through to the `$default` route, whose function answers
 * them from ALLOWED_ORIGINS, and every function adds the CORS headers to its own answers.
 */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The regional endpoint of the API's custom domain, when the execute-api endpoint is disabled. */
  readonly originDomainName?: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const customDomain = config.edge && config.domain && config.apiCertificateArn ? config.domain.name : undefined;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${config.prefix}-api`,
      description: 'Workplace collaboration service API (one Lambda function per route).',
      createDefaultStage: false,
      disableExecuteApiEndpoint: !!customDomain,
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
      throttle: config.apiThrottle,
    });

    if (customDomain) {
      const domainName = new DomainName(this, 'Domain', {
        domainName: customDomain,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', config.apiCertificateArn!),
      });
      new ApiMapping(this, 'Mapping', { api: this.httpApi, domainName, stage: this.stage });
      this.originDomainName = domainName.regionalDomainName;
    } else if (config.edge) {
      Annotations.of(this).addWarningV2(
        'workplace:executeApiEndpoint',
        "The HTTP API's execute-api endpoint stays enabled (it is CloudFront's origin), so clients can bypass the distribution. Set workplace:domainName with workplace:apiCertificateArn to disable it.",
      );
    }

    // Every 5xx but those that are the design working. The HTTP API's own count catches what no
    // function answered (timeouts, throttles, crashes); the service's metrics catch the answers of
    // every function, the stream's too (not behind the API), with the per-person stream cap counted
    // apart (CapacityRefused, shared/observability/metrics.ts). The larger of the two pages: a
    // dependency or deadline 503 still does.
    operatorAlarm(this, 'ServerErrorsAlarm', props.alarmTopicArn, {
      metric: new MathExpression({
        expression: 'MAX([FILL(api5xx, 0), FILL(bugs, 0) + FILL(unavailable, 0)])',
        usingMetrics: {
          api5xx: this.httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
          bugs: serviceMetricSum('ServerErrors'),
          unavailable: serviceMetricSum('DependencyUnavailable'),
        },
        label: '5xx answers (the stream cap excepted)',
        period: Duration.minutes(5),
      }),
      threshold: 1,
      description:
        'The service answered 5xx: a route function failed (its log group has the error), timed out or was throttled (see the concurrency alarm), or a dependency or the request deadline answered 503. 503s of the per-person live-stream cap (CapacityRefused) are the design working and do not count.',
    });

    if (!customDomain) {
      new CfnOutput(this, 'ApiUrl', {
        value: this.httpApi.apiEndpoint,
        description: 'The HTTP API itself (clients use the distribution: the BaseUrl of the edge stack).',
      });
    }
  }
}
