/**
 * `npm run deploy -- <env> [--rollback <commit>]`: builds the sharp layer, runs the preflight
 * (infra/deploy/preflight.ts) and writes what it read from the account into
 * infra/environments/<env>.json, then bundles and runs `cdk deploy --all` for that environment.
 * Nothing reaches CloudFormation while a check fails.
 *
 * `--rollback <commit>`: deploys the code of an earlier commit with today's environment file, from a
 * worktree of that commit (every stack is replaced by that commit's templates, the deploy hook
 * last). Functions are not versioned: the previous commit is the unit of rollback.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { builtLayerDir, ROOT } from '../build/bundle.ts';
import { environmentFile, loadEnvironment, updateEnvironment } from '../stacks/environment.ts';
import { preflight } from './preflight.ts';

export interface Step {
  command: string;
  args: string[];
  cwd: string;
}

/** The commands of a deployment (after the preflight), or of a rollback to `commit`. */
export function deploySteps(
  environment: string,
  { rollback, root = ROOT, workdir }: { rollback?: string; root?: string; workdir?: string } = {},
): Step[] {
  const cdk = (cwd: string): Step => ({
    command: 'npx',
    args: ['cdk', 'deploy', '--all', '--require-approval', 'never', '-c', `workplace:env=${environment}`],
    cwd,
  });
  if (!rollback) return [{ command: 'npm', args: ['run', 'bundle'], cwd: root }, cdk(root)];
  const dir = workdir ?? join(tmpdir(), `workplace-rollback-${rollback}`);
  return [
    { command: 'git', args: ['worktree', 'add', '--detach', dir, rollback], cwd: root },
    { command: 'npm', args: ['ci', '--no-audit', '--no-fund'], cwd: dir },
    { command: 'npm', args: ['run', 'build:layers'], cwd: dir },
    { command: 'npm', args: ['run', 'bundle'], cwd: dir },
    cdk(dir),
  ];
}

async function main(argv: string[]) {
  const [environment, flag, commit] = argv;
  const settings = loadEnvironment(environment);
  const run = (s: Step) => execFileSync(s.command, s.args, { cwd: s.cwd, stdio: 'inherit' });
  run({ command: 'npm', args: ['run', 'build:layers'], cwd: ROOT });
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('Set AWS_REGION (the region to deploy to).');
  const { findings, changes } = await preflight({
    environment,
    settings,
    region,
    layerBuilt: !!builtLayerDir('sharp'),
    clients: {
      cloudFormation: new CloudFormationClient({ region }),
      cloudFormationEdge: new CloudFormationClient({ region: 'us-east-1' }),
      lambda: new LambdaClient({ region }),
      ses: new SESv2Client({ region }),
      sns: new SNSClient({ region }),
    },
  });
  for (const f of findings)
    process.stderr.write(
      `${f.level === 'ok' ? 'ok  ' : f.level === 'warn' ? 'warn' : 'FAIL'} ${f.check}: ${f.message}\n`,
    );
  if (findings.some((f) => f.level === 'fail')) {
    process.stderr.write('\nNothing was deployed: fix the FAIL lines above, then run the deploy again.\n');
    process.exit(1);
  }
  updateEnvironment(environment, changes);
  process.stderr.write(`Wrote ${Object.keys(changes).join(', ')} into ${environmentFile(environment)} (commit it).\n`);
  const rollback = flag === '--rollback' ? commit : undefined;
  const steps = deploySteps(environment, { rollback });
  for (const [i, step] of steps.entries()) {
    run(step);
    // The rollback's worktree deploys with today's settings of the environment.
    if (rollback && i === 0)
      copyFileSync(environmentFile(environment), join(step.args[3], 'infra', 'environments', `${environment}.json`));
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`\n${(error as Error).message}\n`);
    process.exit(1);
  });
}
