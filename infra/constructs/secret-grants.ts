import { type SecretName, secretArnVariable } from '../../shared/config/secrets.ts';
import { bundleSecrets } from '../build/bundle.ts';
import type { SharedData } from '../stacks/shared-data.ts';

/** The data stack's secret of each application secret: its ARN (any version suffix), for IAM. */
export const secretArns = (data: SharedData): Record<SecretName, string> => ({
  cursor: data.cursorSecretArn,
  grievance: data.grievanceSecretArn,
  survey: data.surveySecretArn,
  notification: data.notificationSecretArn,
  idempotency: data.idempotencySecretArn,
  avatar: data.avatarSecretArn,
  scim: data.scimTokenArn,
  oidcClient: data.oidcClientSecretArn,
});

/** Its name, which GetSecretValue takes as well as an ARN. */
const secretNames = (data: SharedData): Record<SecretName, string> => ({
  cursor: data.cursorSecretName,
  grievance: data.grievanceSecretName,
  survey: data.surveySecretName,
  notification: data.notificationSecretName,
  idempotency: data.idempotencySecretName,
  avatar: data.avatarSecretName,
  scim: data.scimTokenName,
  oidcClient: data.oidcClientSecretName,
});

/**
 * What a function gets of the application secrets (shared/config/secrets.ts): the secrets its bundle
 * reads (recorded by infra/build/bundle.ts), each secret's name in `<VARIABLE>_ARN` (the variable takes
 * an ARN or a name, as GetSecretValue does; a name keeps the stacks free of the data stack's outputs). Never the value:
 * the function fetches it at run time, so it is not in the function's configuration. The permission
 * to read exactly these (`secretsmanager:GetSecretValue`) is part of the function's access
 * (shared/api/access-policy.ts), which the local runtime enforces too.
 */
export function secretGrants(
  handler: string,
  data: SharedData,
): { names: SecretName[]; environment: Record<string, string> } {
  const names = bundleSecrets(handler);
  const ids = secretNames(data);
  return { names, environment: Object.fromEntries(names.map((name) => [secretArnVariable(name), ids[name]])) };
}
