import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/build/bundle.ts';
import { ApiStack } from '../../infra/stacks/api-stack.ts';
import { readConfig } from '../../infra/stacks/config.ts';
import { EdgeStack } from '../../infra/stacks/edge-stack.ts';
import { loadEnvironment } from '../../infra/stacks/environment.ts';
import { cdkJsonContext, TEST_ENV, TEST_SETTINGS } from './synth.ts';

/**
 * Whether clients can bypass CloudFront: the HTTP API's default execute-api endpoint is disabled only
 * where CloudFront can reach the API another way (the API's own custom domain), and stays enabled
 * for LocalStack (`workplace:edge=false`, no CloudFront). The API and edge stacks alone, without the
 * route stacks.
 */
const DOMAIN = {
  'workplace:domainName': 'workplace.example.org',
  'workplace:certificateArn': 'arn:aws:acm:us-east-1:123456789012:certificate/edge',
};
const API_CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/regional';

function build(context: Record<string, unknown>) {
  // Template validation (the bulk of synthesis time) is the stacks test's concern.
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext(), ...TEST_SETTINGS, ...context },
  });
  const config = readConfig(app);
  const api = new ApiStack(app, 'Api', {
    env: TEST_ENV,
    config,
    alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms',
  });
  const edge = config.edge
    ? new EdgeStack(app, 'Edge', {
        env: TEST_ENV,
        config,
        httpApi: api.httpApi,
        apiOriginDomainName: api.originDomainName,
        streaming: [],
      })
    : undefined;
  return { api, edge, apiTemplate: Template.fromStack(api), edgeTemplate: edge && Template.fromStack(edge) };
}

const disabled = (t: Template) =>
  Object.values(t.findResources('AWS::ApiGatewayV2::Api'))[0].Properties.DisableExecuteApiEndpoint === true;
const defaultOrigin = (t: Template) => {
  const config = Object.values(t.findResources('AWS::CloudFront::Distribution'))[0].Properties.DistributionConfig;
  return {
    origin: config.Origins.find((o: any) => o.Id === config.DefaultCacheBehavior.TargetOriginId),
    behaviour: config.DefaultCacheBehavior,
  };
};

describe('the HTTP API behind CloudFront', () => {
  it('disables execute-api when the API has the custom domain; CloudFront forwards the viewer Host to it', () => {
    const { apiTemplate, edgeTemplate } = build({ ...DOMAIN, 'workplace:apiCertificateArn': API_CERTIFICATE });
    expect(disabled(apiTemplate)).toBe(true);
    apiTemplate.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: DOMAIN['workplace:domainName'],
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: API_CERTIFICATE, EndpointType: 'REGIONAL' })],
    });
    apiTemplate.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { Stage: Match.anyValue() });
    const { origin, behaviour } = defaultOrigin(edgeTemplate!);
    expect(JSON.stringify(origin.DomainName)).toContain('RegionalDomainName');
    expect(JSON.stringify(origin.DomainName)).not.toContain('execute-api');
    expect(behaviour.OriginRequestPolicyId).toBe('216adef6-5c7f-47e4-b989-5492eafa07d3'); // Managed-AllViewer
  });

  it('keeps execute-api (CloudFront’s origin) without the API certificate, and warns that it can be bypassed', () => {
    const { api, apiTemplate, edgeTemplate } = build(DOMAIN);
    expect(disabled(apiTemplate)).toBe(false);
    apiTemplate.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    expect(JSON.stringify(defaultOrigin(edgeTemplate!).origin.DomainName)).toContain('execute-api');
    expect(
      Annotations.fromStack(api).findWarning('*', Match.stringLikeRegexp('execute-api endpoint stays enabled')),
    ).toHaveLength(1);
  });

  it('keeps execute-api for LocalStack (no CloudFront), whatever else is set', () => {
    const { apiTemplate, edge } = build({
      ...DOMAIN,
      'workplace:apiCertificateArn': API_CERTIFICATE,
      'workplace:edge': 'false',
    });
    expect(edge).toBeUndefined();
    expect(disabled(apiTemplate)).toBe(false);
    apiTemplate.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
  });

  it('deploys LocalStack with workplace:edge=false (package.json scripts)', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    const localstack = Object.entries(scripts).filter(([name]) => name.startsWith('localstack:'));
    expect(localstack.length).toBeGreaterThan(0);
    for (const [name, command] of localstack) expect(command, name).toContain('-c workplace:env=localstack');
    expect(loadEnvironment('localstack')['workplace:edge']).toBe(false);
    expect(cdkJsonContext()['workplace:edge']).toBeUndefined();
  });
});
