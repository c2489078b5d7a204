import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { GetTopicAttributesCommand, type SNSClient } from '@aws-sdk/client-sns';
import { streamingFunctionName } from '../constructs/route-function.ts';
import { UNRESERVED_MINIMUM } from '../stacks/config.ts';
import type { EnvironmentSettings } from '../stacks/environment.ts';
import { mailAddressOf } from '../stacks/shared-data.ts';

/**
 * What the deploy checks before CloudFormation starts, in plain words: each problem says what to fix.
 * Run by `npm run deploy -- <env>` (infra/deploy/deploy.ts) with the deploying credentials; the AWS
 * clients are the deploy script's own (devDependencies), never in a function bundle.
 *
 * - the CDK bootstrap stack in the region (and in us-east-1 for the edge alarms);
 * - the account's Lambda concurrency: the real quota, what others reserve, and the stream's
 *   reservation the account can give, which is written into the environment's file (synthesis
 *   refuses a reservation the account cannot give: infra/stacks/config.ts);
 * - SES: the sandbox (mail only to verified addresses) and the sender identity;
 * - the sharp layer built for linux-arm64;
 * - a supplied alarm topic: its policy lets CloudWatch publish.
 */
export type Level = 'ok' | 'warn' | 'fail';
export interface Finding {
  check: 'bootstrap' | 'concurrency' | 'mail' | 'layer' | 'alarmTopic';
  level: Level;
  message: string;
}

export interface PreflightClients {
  cloudFormation: CloudFormationClient;
  /** us-east-1, when the edge alarms go there (the region is another and the edge is on). */
  cloudFormationEdge?: CloudFormationClient;
  lambda: LambdaClient;
  ses: SESv2Client;
  sns: SNSClient;
}

export interface PreflightInput {
  environment: string;
  settings: EnvironmentSettings;
  region: string;
  clients: PreflightClients;
  /** Whether the sharp layer is built (layers/sharp/build). */
  layerBuilt: boolean;
}

export interface PreflightResult {
  findings: Finding[];
  /** Settings to write into infra/environments/<env>.json (read from the account). */
  changes: EnvironmentSettings;
}

const STREAM_ROUTE = 'get-realtime-stream';
const DEFAULT_STREAM_RESERVATION = 400;
const setting = (s: EnvironmentSettings, key: string) => {
  const v = s[`workplace:${key}`];
  return v === undefined || v === '' ? undefined : String(v);
};
const errorName = (e: unknown) => (e as { name?: string }).name ?? '';

export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  const findings: Finding[] = [];
  const changes: EnvironmentSettings = {};
  const run = async (check: Finding['check'], body: () => Promise<void>) => {
    try {
      await body();
    } catch (error) {
      findings.push({
        check,
        level: 'fail',
        message: `Could not check (${errorName(error)}: ${(error as Error).message}).`,
      });
    }
  };
  await run('bootstrap', () => bootstrap(input, findings));
  await run('concurrency', () => concurrency(input, findings, changes));
  await run('mail', () => mail(input, findings));
  findings.push(
    input.layerBuilt
      ? { check: 'layer', level: 'ok', message: 'The sharp layer is built.' }
      : {
          check: 'layer',
          level: 'fail',
          message:
            'The sharp layer is not built (layers/sharp/build): run `npm run build:layers` (needs the npm registry).',
        },
  );
  await run('alarmTopic', () => alarmTopic(input, findings));
  return { findings, changes };
}

async function bootstrap({ clients, region, settings }: PreflightInput, findings: Finding[]) {
  const check = async (client: CloudFormationClient, where: string) => {
    try {
      const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }));
      const status = Stacks?.[0]?.StackStatus ?? '';
      if (/FAILED|ROLLBACK_COMPLETE|DELETE/.test(status))
        findings.push({
          check: 'bootstrap',
          level: 'fail',
          message: `The CDK bootstrap stack of ${where} is ${status}: run \`npx cdk bootstrap aws://<account>/${where}\` again.`,
        });
      else findings.push({ check: 'bootstrap', level: 'ok', message: `${where} is bootstrapped (${status}).` });
    } catch (error) {
      if (errorName(error) !== 'ValidationError') throw error;
      findings.push({
        check: 'bootstrap',
        level: 'fail',
        message: `${where} is not bootstrapped for the CDK: run \`npx cdk bootstrap aws://<account>/${where}\` once.`,
      });
    }
  };
  await check(clients.cloudFormation, region);
  const edge = setting(settings, 'edge') !== 'false';
  if (edge && region !== 'us-east-1' && clients.cloudFormationEdge)
    await check(clients.cloudFormationEdge, 'us-east-1');
}

async function concurrency({ clients, settings }: PreflightInput, findings: Finding[], changes: EnvironmentSettings) {
  const prefix = setting(settings, 'prefix') ?? 'Workplace';
  const account = await clients.lambda.send(new GetAccountSettingsCommand({}));
  const quota = account.AccountLimit?.ConcurrentExecutions ?? 0;
  const unreserved = account.AccountLimit?.UnreservedConcurrentExecutions ?? quota;
  // This environment's own reservation, if deployed, goes back to the pool it may take again.
  let own = 0;
  try {
    const current = await clients.lambda.send(
      new GetFunctionConcurrencyCommand({ FunctionName: streamingFunctionName(prefix, STREAM_ROUTE) }),
    );
    own = current.ReservedConcurrentExecutions ?? 0;
  } catch (error) {
    if (errorName(error) !== 'ResourceNotFoundException') throw error;
  }
  const others = Math.max(quota - unreserved - own, 0);
  const available = quota - others - UNRESERVED_MINIMUM;
  const wanted = Number(setting(settings, 'streamReservedConcurrency') ?? DEFAULT_STREAM_RESERVATION);
  if (available < 1) {
    findings.push({
      check: 'concurrency',
      level: 'fail',
      message: `The account's Lambda quota is ${quota} concurrent executions${others ? `, ${others} of them reserved by other functions` : ''}; Lambda keeps ${UNRESERVED_MINIMUM} unreserved, so nothing is left to reserve for the live stream. Request an increase of "Concurrent executions" (Service Quotas, AWS Lambda) to at least ${others + UNRESERVED_MINIMUM + wanted + 100}, then deploy again.`,
    });
    return;
  }
  const reservation = Math.min(wanted, available);
  changes['workplace:accountConcurrencyLimit'] = quota;
  changes['workplace:otherReservedConcurrency'] = others;
  changes['workplace:streamReservedConcurrency'] = reservation;
  findings.push({
    check: 'concurrency',
    level: reservation < wanted ? 'warn' : 'ok',
    message:
      reservation < wanted
        ? `The account's quota of ${quota} executions (${others} reserved elsewhere) can give the live stream ${reservation}, not ${wanted}: at most ${reservation} streams can be open at once. Request a higher "Concurrent executions" quota to allow more.`
        : `Quota ${quota}, ${others} reserved elsewhere: the live stream reserves ${reservation}, ${quota - others - reservation} stay for the routes.`,
  });
}

async function mail({ clients, settings }: PreflightInput, findings: Finding[]) {
  const account = await clients.ses.send(new GetAccountCommand({}));
  if (!account.ProductionAccessEnabled) {
    findings.push({
      check: 'mail',
      level: 'warn',
      message:
        'SES is in the sandbox in this region: invitations and reminders reach only verified addresses. Request production access (SES console, "Get set up").',
    });
  }
  if (account.SendingEnabled === false)
    findings.push({
      check: 'mail',
      level: 'fail',
      message:
        'SES sending is paused for this account in this region: see the SES console (reputation) before deploying.',
    });
  const from = setting(settings, 'mailFrom');
  if (!from) {
    findings.push({
      check: 'mail',
      level: 'warn',
      message: 'No sender (workplace:mailFrom): the service cannot send e-mail. Set it in the environment file.',
    });
    return;
  }
  const address = mailAddressOf(from);
  const verified = async (identity: string) => {
    try {
      const r = await clients.ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
      return r.VerifiedForSendingStatus === true;
    } catch (error) {
      if (errorName(error) === 'NotFoundException') return false;
      throw error;
    }
  };
  if ((await verified(address)) || (await verified(address.split('@')[1]))) {
    findings.push({ check: 'mail', level: 'ok', message: `The sender ${address} is verified.` });
  } else {
    findings.push({
      check: 'mail',
      level: 'warn',
      message: `The sender ${address} is not verified yet: the data stack creates its identity and SES mails a link to that address; click it (or verify the domain). Until then every e-mail fails (MailFailures alarm).`,
    });
  }
}

/** Whether a topic policy lets CloudWatch publish (the statement infra/constructs/alarms.ts writes, or a broader one). */
export function allowsCloudWatch(policyJson: string | undefined): boolean {
  if (!policyJson) return false;
  const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as string[];
  const statements = list((JSON.parse(policyJson) as { Statement?: unknown }).Statement) as unknown as Record<
    string,
    any
  >[];
  return statements.some(
    (st) =>
      st.Effect === 'Allow' &&
      list(st.Principal?.Service).includes('cloudwatch.amazonaws.com') &&
      list(st.Action).some((a) => a === 'sns:Publish' || a === 'sns:*' || a === '*'),
  );
}

async function alarmTopic({ clients, settings }: PreflightInput, findings: Finding[]) {
  const arn = setting(settings, 'alarmTopicArn');
  if (!arn) return;
  try {
    const { Attributes } = await clients.sns.send(new GetTopicAttributesCommand({ TopicArn: arn }));
    findings.push(
      allowsCloudWatch(Attributes?.Policy)
        ? { check: 'alarmTopic', level: 'ok', message: `${arn} lets CloudWatch publish.` }
        : {
            check: 'alarmTopic',
            level: 'fail',
            message: `The alarm topic ${arn} does not let CloudWatch publish, so every alarm would reach nobody: add to its access policy a statement allowing the service principal cloudwatch.amazonaws.com sns:Publish (conditioned on aws:SourceAccount), or leave workplace:alarmTopicArn out to use the topic the data stack creates.`,
          },
    );
  } catch (error) {
    if (errorName(error) !== 'NotFoundException') throw error;
    findings.push({
      check: 'alarmTopic',
      level: 'fail',
      message: `The alarm topic ${arn} (workplace:alarmTopicArn) does not exist in this account and region.`,
    });
  }
}
