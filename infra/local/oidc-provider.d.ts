// The part of panva's oidc-provider (which ships no types) that infra/local/oidc-idp.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface Ctx {
    oidc: {
      session?: { accountId?: string };
      client?: { clientId: string };
      provider: { Grant: new (o: { accountId: string; clientId: string }) => Grant };
    };
  }
  export interface Configuration {
    clients: Record<string, unknown>[];
    findAccount: (
      ctx: unknown,
      id: string,
    ) => Promise<{ accountId: string; claims: () => Promise<Record<string, unknown>> } | undefined>;
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    pkce: { required: () => boolean };
    features: Record<string, { enabled: boolean }>;
    interactions: { url: (ctx: unknown, interaction: { uid: string }) => string };
    loadExistingGrant: (ctx: Ctx) => Promise<Grant | undefined>;
    cookies: { keys: string[] };
    ttl?: Record<string, number>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<{ uid: string; params: Record<string, unknown> }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
