import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deploySteps } from './deploy.ts';
import { allowsCloudWatch, type PreflightInput, preflight } from './preflight.ts';

const cfn = mockClient(CloudFormationClient);
const lambda = mockClient(LambdaClient);
const ses = mockClient(SESv2Client);
const sns = mockClient(SNSClient);
const named = (name: string, message = name) => Object.assign(new Error(message), { name });

const input = (settings: PreflightInput['settings'] = {}, layerBuilt = true): PreflightInput => ({
  environment: 'production',
  region: 'eu-west-1',
  layerBuilt,
  settings: { 'workplace:prefix': 'Workplace', 'workplace:mailFrom': 'Workplace <no-reply@corp.io>', ...settings },
  clients: {
    cloudFormation: new CloudFormationClient({ region: 'eu-west-1' }),
    cloudFormationEdge: new CloudFormationClient({ region: 'us-east-1' }),
    lambda: new LambdaClient({ region: 'eu-west-1' }),
    ses: new SESv2Client({ region: 'eu-west-1' }),
    sns: new SNSClient({ region: 'eu-west-1' }),
  },
});
const of = async (i: PreflightInput, check: string) => {
  const r = await preflight(i);
  return { ...r, findings: r.findings.filter((f) => f.check === check) };
};

beforeEach(() => {
  // A healthy account: bootstrapped, quota 1,000, nothing reserved, SES out of the sandbox, sender verified.
  cfn
    .on(DescribeStacksCommand)
    .resolves({ Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date() }] });
  lambda
    .on(GetAccountSettingsCommand)
    .resolves({ AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 1000 } });
  lambda.on(GetFunctionConcurrencyCommand).rejects(named('ResourceNotFoundException'));
  ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true });
  ses.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: true });
});
afterEach(() => {
  for (const m of [cfn, lambda, ses, sns]) m.reset();
});

describe('deploy preflight', () => {
  it('passes a healthy account and writes the quota and the reservation into the settings', async () => {
    const r = await preflight(input());
    expect(r.findings.filter((f) => f.level !== 'ok')).toEqual([]);
    expect(r.changes).toEqual({
      'workplace:accountConcurrencyLimit': 1000,
      'workplace:otherReservedConcurrency': 0,
      'workplace:streamReservedConcurrency': 400,
    });
  });

  it('bootstrap: a region without the CDK toolkit stack (or us-east-1 for the edge alarms) fails, saying what to run', async () => {
    cfn.on(DescribeStacksCommand).rejects(named('ValidationError', 'Stack with id CDKToolkit does not exist'));
    const { findings } = await of(input(), 'bootstrap');
    expect(findings.map((f) => f.level)).toEqual(['fail', 'fail']);
    expect(findings[0].message).toContain('npx cdk bootstrap aws://<account>/eu-west-1');
    expect(findings[1].message).toContain('us-east-1');
    // Without the edge, us-east-1 is not needed.
    expect((await of(input({ 'workplace:edge': false }), 'bootstrap')).findings).toHaveLength(1);
  });

  it('concurrency: a fresh account with a quota of 10 fails before CloudFormation, naming the quota to request', async () => {
    lambda
      .on(GetAccountSettingsCommand)
      .resolves({ AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 } });
    const r = await of(input(), 'concurrency');
    expect(r.findings[0].level).toBe('fail');
    expect(r.findings[0].message).toMatch(
      /quota is 10 concurrent executions.*Request an increase of "Concurrent executions"/,
    );
    expect(r.changes).toEqual({});
  });

  it("concurrency: another environment's reservation is subtracted, this environment's own is given back", async () => {
    // Quota 1,000; 700 reserved in all, 300 of them by this environment's stream function.
    lambda
      .on(GetAccountSettingsCommand)
      .resolves({ AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 300 } });
    lambda
      .on(GetFunctionConcurrencyCommand, { FunctionName: 'Workplace-get-realtime-stream' })
      .resolves({ ReservedConcurrentExecutions: 300 });
    const r = await of(input(), 'concurrency');
    expect(r.changes['workplace:otherReservedConcurrency']).toBe(400);
    // 1,000 - 400 - 100 = 500 available: the wanted 400 fits.
    expect(r.changes['workplace:streamReservedConcurrency']).toBe(400);
    // A second environment wanting 800 gets what is left, with a warning.
    const second = await of(
      input({ 'workplace:prefix': 'Staging', 'workplace:streamReservedConcurrency': 800 }),
      'concurrency',
    );
    expect(second.changes['workplace:streamReservedConcurrency']).toBe(200);
    expect(second.findings[0].level).toBe('warn');
  });

  it('mail: the sandbox and an unverified sender are said in plain words; paused sending fails', async () => {
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false, SendingEnabled: true });
    ses.on(GetEmailIdentityCommand).rejects(named('NotFoundException'));
    const { findings } = await of(input(), 'mail');
    expect(findings.map((f) => f.level)).toEqual(['warn', 'warn']);
    expect(findings[0].message).toMatch(/sandbox.*production access/);
    expect(findings[1].message).toMatch(/no-reply@corp.io is not verified/);
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: false });
    expect((await of(input(), 'mail')).findings.some((f) => f.level === 'fail')).toBe(true);
    // A verified domain is enough.
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true });
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'corp.io' }).resolves({ VerifiedForSendingStatus: true });
    expect((await of(input(), 'mail')).findings.map((f) => f.level)).toEqual(['ok']);
  });

  it('layer: an unbuilt sharp layer fails with the command to run', async () => {
    const { findings } = await of(input({}, false), 'layer');
    expect(findings[0]).toMatchObject({ level: 'fail', message: expect.stringContaining('npm run build:layers') });
  });

  it('alarm topic: a supplied topic whose policy does not admit CloudWatch fails; one that does passes', async () => {
    const TopicArn = 'arn:aws:sns:eu-west-1:123456789012:oncall';
    const deny = {
      Statement: [
        {
          Effect: 'Deny',
          Principal: '*',
          Action: 'sns:Publish',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
      ],
    };
    sns.on(GetTopicAttributesCommand, { TopicArn }).resolves({ Attributes: { Policy: JSON.stringify(deny) } });
    const bad = await of(input({ 'workplace:alarmTopicArn': TopicArn }), 'alarmTopic');
    expect(bad.findings[0]).toMatchObject({
      level: 'fail',
      message: expect.stringContaining('cloudwatch.amazonaws.com'),
    });
    const allow = {
      Statement: [
        ...deny.Statement,
        {
          Effect: 'Allow',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Action: 'sns:Publish',
          Resource: TopicArn,
        },
      ],
    };
    sns.on(GetTopicAttributesCommand, { TopicArn }).resolves({ Attributes: { Policy: JSON.stringify(allow) } });
    expect((await of(input({ 'workplace:alarmTopicArn': TopicArn }), 'alarmTopic')).findings[0].level).toBe('ok');
    sns.on(GetTopicAttributesCommand).rejects(named('NotFoundException'));
    expect((await of(input({ 'workplace:alarmTopicArn': TopicArn }), 'alarmTopic')).findings[0].message).toMatch(
      /does not exist/,
    );
    // No topic supplied: nothing to check (the data stack's own topic is tested in test/infra).
    expect((await of(input(), 'alarmTopic')).findings).toEqual([]);
    expect(allowsCloudWatch(undefined)).toBe(false);
  });

  it('an AWS error is reported as a failed check, not a crash', async () => {
    lambda.on(GetAccountSettingsCommand).rejects(named('AccessDeniedException', 'not allowed'));
    const { findings } = await of(input(), 'concurrency');
    expect(findings[0]).toMatchObject({ level: 'fail', message: expect.stringContaining('AccessDeniedException') });
  });
});

describe('deploy and rollback', () => {
  it('deploys the chosen environment; a rollback deploys an earlier commit from its own worktree', () => {
    expect(deploySteps('production', { root: '/repo' }).map((s) => [s.command, ...s.args].join(' '))).toEqual([
      'npm run bundle',
      'npx cdk deploy --all --require-approval never -c workplace:env=production',
    ]);
    const steps = deploySteps('production', { root: '/repo', rollback: 'abc123', workdir: '/tmp/rb' });
    expect(steps.map((s) => `${s.cwd}: ${[s.command, ...s.args].join(' ')}`)).toEqual([
      '/repo: git worktree add --detach /tmp/rb abc123',
      '/tmp/rb: npm ci --no-audit --no-fund',
      '/tmp/rb: npm run build:layers',
      '/tmp/rb: npm run bundle',
      '/tmp/rb: npx cdk deploy --all --require-approval never -c workplace:env=production',
    ]);
  });
});
