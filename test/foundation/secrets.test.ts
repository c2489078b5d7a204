import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/build/bundle.ts';
import { defineRoute } from '../../shared/api/route-def.ts';
import { loadSecrets, SECRET_NAMES, SECRETS, secret, secretArnVariable } from '../../shared/config/secrets.ts';
import { route } from '../../shared/http/route.ts';

/**
 * The secrets accessor in both of its worlds: locally the values are in the environment (the local
 * runtime's DATA_DIR/secrets.json); deployed, the function holds only the ARNs of the secrets it is
 * granted and fetches them on its first invocation.
 */
const saved = { ...process.env };
const secretsManager = mockClient(SecretsManagerClient);
const ARN = {
  cursor: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CursorSecret-AbCdEf',
  grievance: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:GrievanceSecret-GhIjKl',
};

/** The environment of a deployed function granted `granted` (ARNs only, no values). */
function deployed(granted: (keyof typeof ARN)[]) {
  for (const name of SECRET_NAMES) {
    delete process.env[SECRETS[name].variable];
    delete process.env[secretArnVariable(name)];
  }
  for (const name of granted) process.env[secretArnVariable(name)] = ARN[name];
}

beforeEach(() => {
  secretsManager.reset();
  secretsManager
    .on(GetSecretValueCommand, { SecretId: ARN.cursor })
    .resolves({ SecretString: 'cursor-value-from-secrets-manager' });
  secretsManager
    .on(GetSecretValueCommand, { SecretId: ARN.grievance })
    .resolves({ SecretString: 'grievance-value-from-secrets-manager' });
});
afterEach(() => {
  process.env = { ...saved };
});

describe('application secrets', () => {
  it('reads the values from the environment locally, without Secrets Manager', async () => {
    process.env.CURSOR_SECRET = 'local-cursor';
    await loadSecrets();
    expect(secret('cursor')).toBe('local-cursor');
    expect(secretsManager.calls()).toHaveLength(0);
  });

  it('fails loudly when a deployed function reads a secret it was not granted', async () => {
    deployed(['cursor']);
    await loadSecrets();
    expect(() => secret('grievance')).toThrow(/GRIEVANCE_SECRET is not available to this function/);
    expect(secretsManager.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input.SecretId)).toEqual([
      ARN.cursor,
    ]);
  });

  it('fetches a granted secret on first use, not at import, and then serves it from the cache', async () => {
    deployed(['grievance']);
    // The module is loaded: nothing fetched yet, and reading before loading is an error, not undefined.
    expect(secretsManager.calls()).toHaveLength(0);
    expect(() => secret('grievance')).toThrow(/not loaded/);
    await loadSecrets();
    await loadSecrets();
    expect(secret('grievance')).toBe('grievance-value-from-secrets-manager');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('loads the secrets in the route wrapper before the handler runs', async () => {
    deployed(['cursor']);
    const def = defineRoute({
      name: 'probe-secret',
      area: 'system',
      method: 'GET',
      path: '/api/v1/probe-secret',
      auth: 'public',
      summary: 'probe',
      status: 200,
    });
    const handler = route(def, async () => ({ sealedWith: secret('cursor') }));
    const event = {
      version: '2.0',
      routeKey: 'GET /api/v1/probe-secret',
      rawPath: '/api/v1/probe-secret',
      rawQueryString: '',
      headers: {},
      requestContext: { http: { method: 'GET', path: '/api/v1/probe-secret' }, requestId: 'r1' },
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;
    const res = await handler(event, { awsRequestId: 'r1' } as Context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body!)).toEqual({ sealedWith: 'cursor-value-from-secrets-manager' });
  });

  it('is read only by the module each secret declares (the grants are derived from that module)', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(relative(ROOT, p).replace(/\\/g, '/'));
      }
    };
    for (const dir of ['shared', 'functions', 'infra/handlers']) walk(join(ROOT, dir));
    const readers = new Map<string, string[]>();
    for (const file of files) {
      if (file === 'shared/config/secrets.ts') continue;
      const source = readFileSync(join(ROOT, file), 'utf8');
      for (const name of SECRET_NAMES) {
        // A call of the accessor, or the variable read directly.
        const read = new RegExp(
          `\\bsecret(Value|Keys)?\\(\\s*'${name}'\\s*\\)|process\\.env\\.${SECRETS[name].variable}\\b`,
        );
        if (read.test(source)) readers.set(name, [...(readers.get(name) ?? []), file]);
      }
    }
    for (const name of SECRET_NAMES) expect(readers.get(name), name).toEqual([SECRETS[name].readBy]);
  });
});
