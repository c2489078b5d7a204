import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { awsClient } from '../aws/clients.ts';

/**
 * The application secrets and the one module that reads each. Which functions may read a secret is
 * derived from that: a function whose bundle contains the reading module is granted the secret
 * (infra/build/bundle.ts records it, infra/constructs/secret-grants.ts grants it), and no other.
 *
 * - Locally (`npm start`, tests) the value is in the environment (`CURSOR_SECRET`, ...), generated
 *   into `DATA_DIR/secrets.json` by the local runtime.
 * - Deployed, the function's configuration holds only the secret's ARN (`CURSOR_SECRET_ARN`, ...);
 *   the value stays in Secrets Manager, read by the function's own role on its first invocation
 *   (`loadSecrets`, awaited by the handler wrappers) and cached by Powertools Parameters, never at
 *   module load. Nobody reads it with `lambda:GetFunctionConfiguration`.
 */
export const SECRETS = {
  /** Seals paging cursors. */
  cursor: { variable: 'CURSOR_SECRET', readBy: 'shared/db/cursor.ts' },
  /** Keys the hashes and seals that keep grievance authors anonymous. */
  grievance: { variable: 'GRIEVANCE_SECRET', readBy: 'shared/grievances/anonymity.ts' },
  /**
   * Keys the tags and seals that keep survey answers apart from the people who gave them
   * (docs/surveys.md): a key of its own, so the survey functions never hold the grievance key.
   */
  survey: { variable: 'SURVEY_SECRET', readBy: 'shared/surveys/anonymity.ts' },
  /**
   * Seals every notification's content (kind, actor, references, preview). A key of its own, so the
   * functions that list or stream notifications never hold the grievance key.
   */
  notification: { variable: 'NOTIFICATION_SECRET', readBy: 'shared/notifications/sealing.ts' },
  /** Keys the tags of Idempotency-Key records and request fingerprints (every creating route). */
  idempotency: { variable: 'IDEMPOTENCY_SECRET', readBy: 'shared/http/idempotency-keys.ts' },
  /**
   * Keys the owner tag of avatar object keys (`avatars/<tag>_...`), so a published key cannot be linked
   * back to a person by anyone who knows their id.
   */
  avatar: { variable: 'AVATAR_SECRET', readBy: 'shared/people/avatar-tag.ts' },
  /**
   * The bearer token of SCIM provisioning clients (Entra ID, Okta): grants the SCIM routes only. A key
   * ring while it is rotated, so the previous token keeps working until the ring drops it.
   */
  scim: { variable: 'SCIM_TOKEN', readBy: 'shared/scim/token.ts' },
  /**
   * The client secret the identity provider issued for single sign-on (docs/sso.md): not generated,
   * the operator puts the provider's value in it. Read by the SSO callback only.
   */
  oidcClient: { variable: 'OIDC_CLIENT_SECRET', readBy: 'shared/sso/client-secret.ts' },
} as const;

export type SecretName = keyof typeof SECRETS;
export const SECRET_NAMES = Object.keys(SECRETS) as SecretName[];

/** The variable that carries a secret's ARN on a deployed function granted it. */
export const secretArnVariable = (name: SecretName) => `${SECRETS[name].variable}_ARN`;

/**
 * How long a fetched value is reused (Powertools' cache): a rotated cursor secret reaches every
 * function within this time, which is why the previous key stays in its ring longer
 * (docs/deployment.md, "Rotating the secrets").
 */
export const SECRET_CACHE_SECONDS = 900;

const loaded = new Map<SecretName, string>();
let provider: SecretsProvider | undefined;

/** Powertools' provider on a client made like every other (shared/aws/clients.ts: the local access guard sees it). */
const secrets = () =>
  (provider ??= new SecretsProvider({ awsSdkV3Client: awsClient('secretsmanager', new SecretsManagerClient({})) }));

/** One secret's string value from Secrets Manager, cached. */
export async function fetchSecret(arn: string): Promise<string> {
  const value = await secrets().get(arn, { maxAge: SECRET_CACHE_SECONDS });
  if (typeof value !== 'string' || value === '') throw new Error(`The secret ${arn} holds no string value.`);
  return value;
}

/**
 * Fetches the secrets this function is granted (the ARNs in its environment) that the environment does
 * not already hold; a no-op locally. The handler wrappers await it before the handler body, so the
 * synchronous `secret()` can be used anywhere below them.
 */
export async function loadSecrets(): Promise<void> {
  for (const name of SECRET_NAMES) {
    const arn = process.env[secretArnVariable(name)];
    if (!arn || process.env[SECRETS[name].variable]) continue;
    loaded.set(name, await fetchSecret(arn));
  }
}

/**
 * The keys a secret holds, the current one first. A secret's value is one key, or a key ring
 * `{"keys": ["<current>", "<previous>", ...]}` while it is being rotated (docs/deployment.md, "Rotating
 * the cursor secret"): new values are made with the first key, and values made with any of the others
 * still open until the ring drops it.
 */
export function secretKeys(name: SecretName): string[] {
  const value = secret(name);
  if (!value.startsWith('{')) return [value];
  let keys: unknown;
  try {
    keys = (JSON.parse(value) as { keys?: unknown }).keys;
  } catch {
    keys = undefined;
  }
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string' && k.length >= 16))
    throw new Error(`${SECRETS[name].variable} is a key ring without keys: {"keys": ["<current>", "<previous>"]}`);
  return keys as string[];
}

/**
 * A secret's value: from the environment locally, from what `loadSecrets` fetched when deployed.
 * Throws when the function was not granted it, rather than running with a missing key.
 */
export function secret(name: SecretName): string {
  const { variable, readBy } = SECRETS[name];
  const value = process.env[variable] || loaded.get(name);
  if (value) return value;
  if (process.env[secretArnVariable(name)]) {
    throw new Error(`${variable} is not loaded: the handler wrapper must await loadSecrets() first.`);
  }
  throw new Error(
    `${variable} is not available to this function: neither the value nor ${secretArnVariable(name)} is set (deployed, only functions whose bundle contains ${readBy} are granted it).`,
  );
}
