import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type SecretName, secretArnVariable } from '../../shared/config/secrets.ts';
import { bundleSecrets } from '../build/bundle.ts';
import type { SharedData } from '../stacks/data-stack.ts';
import type { GrantedStatement } from './route-function.ts';

/** The data stack's secret of each application secret. */
const secretArns = (data: SharedData): Record<SecretName, string> => ({
  cursor: data.cursorSecretArn,
  grievance: data.grievanceSecretArn,
});

/**
 * What a function gets of the application secrets (shared/config/secrets.ts): for each secret its bundle
 * reads (recorded by infra/build/bundle.ts), the secret's ARN in `<VARIABLE>_ARN` and
 * `secretsmanager:GetSecretValue` on exactly that secret. Never the value: the function fetches it at
 * run time, so it is not in the function's configuration.
 */
export function secretGrants(
  handler: string,
  data: SharedData,
): { environment: Record<string, string>; statements: GrantedStatement[] } {
  const names = bundleSecrets(handler);
  if (!names.length) return { environment: {}, statements: [] };
  const arns = secretArns(data);
  return {
    environment: Object.fromEntries(names.map((name) => [secretArnVariable(name), arns[name]])),
    statements: [
      {
        statement: new PolicyStatement({
          sid: 'Secrets',
          actions: ['secretsmanager:GetSecretValue'],
          resources: names.map((name) => arns[name]),
        }),
      },
    ],
  };
}
