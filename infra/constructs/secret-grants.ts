import { type SecretName, secretArnVariable } from '../../shared/config/secrets.ts';
import { bundleSecrets } from '../build/bundle.ts';
import type { SharedData } from '../stacks/data-stack.ts';

/** The data stack's secret of each application secret. */
export const secretArns = (data: SharedData): Record<SecretName, string> => ({
  cursor: data.cursorSecretArn,
  grievance: data.grievanceSecretArn,
});

/**
 * What a function gets of the application secrets (shared/config/secrets.ts): the secrets its bundle
 * reads (recorded by infra/build/bundle.ts), each secret's ARN in `<VARIABLE>_ARN`. Never the value:
 * the function fetches it at run time, so it is not in the function's configuration. The permission
 * to read exactly these (`secretsmanager:GetSecretValue`) is part of the function's access
 * (shared/api/access-policy.ts), which the local runtime enforces too.
 */
export function secretGrants(
  handler: string,
  data: SharedData,
): { names: SecretName[]; environment: Record<string, string> } {
  const names = bundleSecrets(handler);
  const arns = secretArns(data);
  return { names, environment: Object.fromEntries(names.map((name) => [secretArnVariable(name), arns[name]])) };
}
