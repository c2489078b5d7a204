/**
 * The one place every AWS client of the service passes through when it is made (`awsClient`), and
 * where the local runtime's stand-ins for AWS (the outbox for SES and SNS) report the call they
 * replace (`standInCall`). The local runtime installs its access guard here
 * (infra/local/access-guard.ts) so a handler is refused what its deployed role would refuse;
 * deployed nothing is installed and both are no-ops.
 */
export type AwsService = 'dynamodb' | 's3' | 'sns' | 'ses' | 'secretsmanager' | 'ssm' | 'cloudfront';

/** What the SDK clients have in common that the hook needs: their middleware stack. */
export interface HookableClient {
  middlewareStack: { add: (...args: any[]) => void };
}

export interface AwsClientHook {
  client(service: AwsService, client: HookableClient): void;
  /** A call the local runtime does not send to AWS (e.g. `ses:SendEmail` into the outbox); throws when refused. */
  standIn(service: AwsService, action: string, resource: string): void;
}

/**
 * Kept on the global object, not in this module: a bundled handler (dist/functions) carries its own
 * copy of this module, and the runtime's guard must reach it too.
 */
const HOOK = Symbol.for('workplace.awsClientHook');
const hook = () => (globalThis as { [HOOK]?: AwsClientHook })[HOOK];

/** The local runtime only: installed before any handler module is loaded. */
export function installAwsClientHook(h: AwsClientHook | undefined): void {
  (globalThis as { [HOOK]?: AwsClientHook })[HOOK] = h;
}

export function awsClient<T extends HookableClient>(service: AwsService, client: T): T {
  hook()?.client(service, client);
  return client;
}

export function standInCall(service: AwsService, action: string, resource: string): void {
  hook()?.standIn(service, action, resource);
}
