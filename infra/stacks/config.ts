import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Deployment settings, read from CDK context (`cdk.json` or `-c key=value`):
 *
 * | context key                   | default            | becomes                                             |
 * |-------------------------------|--------------------|-----------------------------------------------------|
 * | `workplace:prefix`            | `Workplace`        | stack names (`<prefix>-Data`, ...) and export names |
 * | `workplace:allowedOrigins`    | `*` (warned about) | ALLOWED_ORIGINS of every function, bucket CORS      |
 * | `workplace:companyTimezone`   | `UTC`              | COMPANY_TIMEZONE                                    |
 * | `workplace:logRetentionDays`  | `30`               | retention of every function's and the API's logs   |
 * | `workplace:logLevel`          | `INFO`             | LOG_LEVEL                                           |
 * | `workplace:mailFrom`          | unset              | MAIL_FROM of the functions that send e-mail (SES)   |
 *
 * SERVICE_VERSION is package.json's version.
 */
export interface DeployConfig {
  prefix: string;
  allowedOrigins: string[];
  companyTimezone: string;
  logRetention: RetentionDays;
  logLevel: string;
  mailFrom?: string;
  serviceVersion: string;
}

const ctx = (scope: Construct, key: string): string | undefined => {
  const v = scope.node.tryGetContext(`workplace:${key}`);
  if (v === undefined || v === null || v === '') return undefined;
  return Array.isArray(v) ? v.join(',') : String(v);
};

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export function readConfig(scope: Construct, overrides: Partial<DeployConfig> = {}): DeployConfig {
  const origins = (ctx(scope, 'allowedOrigins') ?? '*')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const days = Number(ctx(scope, 'logRetentionDays') ?? 30);
  if (!Object.values(RetentionDays).includes(days)) {
    throw new Error(`workplace:logRetentionDays=${days} is not a CloudWatch Logs retention period`);
  }
  const config: DeployConfig = {
    prefix: ctx(scope, 'prefix') ?? 'Workplace',
    allowedOrigins: origins,
    companyTimezone: ctx(scope, 'companyTimezone') ?? 'UTC',
    logRetention: days as RetentionDays,
    logLevel: ctx(scope, 'logLevel') ?? 'INFO',
    mailFrom: ctx(scope, 'mailFrom'),
    serviceVersion: packageVersion(),
    ...overrides,
  };
  return config;
}
