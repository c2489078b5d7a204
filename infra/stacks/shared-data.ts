/**
 * What the other stacks use of the data stack, built from the prefix's names (infra/stacks/names.ts)
 * in the consuming stack itself: no export, no import, nothing CloudFormation would refuse to change.
 * A stack that uses them still deploys after the data stack (`addStackDependency`), which creates them.
 */
export interface SharedData {
  tableName: string;
  tableArn: string;
  bucketName: string;
  bucketArn: string;
  /** Secrets by name (GetSecretValue takes a name); the ARNs match any version's suffix. */
  cursorSecretName: string;
  cursorSecretArn: string;
  grievanceSecretName: string;
  grievanceSecretArn: string;
  surveySecretName: string;
  surveySecretArn: string;
  notificationSecretName: string;
  notificationSecretArn: string;
  idempotencySecretName: string;
  idempotencySecretArn: string;
  avatarSecretName: string;
  avatarSecretArn: string;
  scimTokenName: string;
  scimTokenArn: string;
  /** The identity provider's client secret for single sign-on (docs/sso.md). */
  oidcClientSecretName: string;
  oidcClientSecretArn: string;
  /** The SNS topic every alarm notifies. */
  alarmTopicArn: string;
  /** The generated password of the first super admin (only with `workplace:adminEmail`). */
  adminPasswordSecretName?: string;
  adminPasswordSecretArn?: string;
}

/** `Workplace <no-reply@example.com>` → `no-reply@example.com` (a bare address is returned as it is). */
export function mailAddressOf(mailFrom: string): string {
  const address = (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address))
    throw new Error(`workplace:mailFrom has no e-mail address: ${mailFrom}`);
  return address;
}
