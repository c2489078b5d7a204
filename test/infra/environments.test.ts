import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/build/bundle.ts';
import { readConfig } from '../../infra/stacks/config.ts';
import {
  conflictingFlags,
  deploymentProblems,
  environmentNames,
  loadEnvironment,
  updateEnvironment,
} from '../../infra/stacks/environment.ts';
import { cdkJsonContext, SYNTH_TIMEOUT } from './synth.ts';

/** Settings per environment in committed files, and what a real deployment refuses. */
const problems = (settings: Record<string, string | number | boolean>) =>
  deploymentProblems(settings, readConfig(new App({ context: settings })));

describe('a deployment refuses placeholders and open origins (issue 22, defect 7)', () => {
  it(
    'the CDK app refuses to synthesise the committed placeholder origin, naming the setting',
    () => {
      // The app as the CLI runs it: cdk.json's context plus the environment flag.
      const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/app.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          CDK_OUTDIR: out,
          CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJsonContext(), 'workplace:env': 'production' }),
        },
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(run.status, run.stderr).not.toBe(0);
      expect(run.stderr).toContain('workplace:allowedOrigins is a placeholder (https://workplace.example.com)');
    },
    SYNTH_TIMEOUT,
  );

  it('refuses a missing origin list and "*", and accepts real origins', () => {
    expect(problems({}).join()).toMatch(/workplace:allowedOrigins is not set/);
    expect(problems({ 'workplace:allowedOrigins': '*' }).join()).toMatch(/workplace:allowedOrigins is "\*"/);
    expect(problems({ 'workplace:allowedOrigins': 'https://a.corp.io,*' }).join()).toMatch(/"\*"/);
    expect(problems({ 'workplace:allowedOrigins': 'https://workplace.corp.io' })).toEqual([]);
  });

  it('refuses placeholders in any setting, naming each', () => {
    const found = problems({
      'workplace:allowedOrigins': 'https://workplace.corp.io',
      'workplace:mailFrom': 'Workplace <no-reply@example.com>',
      'workplace:adminEmail': 'it@example.org',
      'workplace:alarmTopicArn': 'arn:aws:sns:eu-west-1:<account>:alarms',
    });
    expect(found).toHaveLength(3);
    expect(found.join('\n')).toMatch(/workplace:mailFrom is a placeholder/);
    expect(found.join('\n')).toMatch(/workplace:adminEmail is a placeholder/);
    expect(found.join('\n')).toMatch(/workplace:alarmTopicArn is a placeholder/);
    // A real sender with a display name in angle brackets is not a placeholder.
    expect(
      problems({ 'workplace:allowedOrigins': 'https://w.corp.io', 'workplace:mailFrom': 'Workplace <hr@corp.io>' }),
    ).toEqual([]);
  });

  it('commits an environment per deployment; LocalStack is deployable as it is', () => {
    expect(environmentNames()).toEqual(expect.arrayContaining(['localstack', 'production']));
    expect(problems(loadEnvironment('localstack'))).toEqual([]);
    expect(() => loadEnvironment(undefined)).toThrow(/Choose an environment: -c workplace:env=<name>/);
    expect(() => loadEnvironment('nowhere')).toThrow(/infra\/environments\/nowhere.json/);
  });

  it('refuses -c flags that differ from the committed file, and the preflight writes into it', () => {
    const settings = { 'workplace:prefix': 'Workplace', 'workplace:edge': false };
    const flags: Record<string, unknown> = { 'workplace:prefix': 'Other', 'workplace:edge': 'false' };
    expect(conflictingFlags(settings, (k) => flags[k])).toEqual(['workplace:prefix']);
    const dir = mkdtempSync(join(tmpdir(), 'envs-'));
    writeFileSync(join(dir, 'staging.json'), JSON.stringify({ 'workplace:prefix': 'Staging' }));
    updateEnvironment('staging', { 'workplace:streamReservedConcurrency': 120 }, dir);
    expect(loadEnvironment('staging', dir)).toEqual({
      'workplace:prefix': 'Staging',
      'workplace:streamReservedConcurrency': 120,
    });
  });
});
