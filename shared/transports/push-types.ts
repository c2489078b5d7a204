/** What a push transport (shared/transports/push.ts, sns-push.ts) takes and answers. */
export type PushPlatform = 'web' | 'ios' | 'android';

/** The data every platform receives; the same four fields draw the system notification. */
export interface PushMessage {
  title: string;
  body: string;
  /** A web path: `/feed#post-<id>` or `/feed`. */
  link: string;
  kind: string;
}

/** Where one registered token's deliveries go. The token itself is needed only to register it. */
export interface PushTarget {
  userId: string;
  platform: PushPlatform;
  /** The SNS platform endpoint (deployed); null locally. */
  endpointArn: string | null;
}

export interface PushRegistration {
  userId: string;
  platform: PushPlatform;
  token: string;
  /** The endpoint this token already has, if any (repaired and reused rather than created again). */
  endpointArn: string | null;
}

/** `gone`: the endpoint is dead (disabled by the platform, or deleted); the token is disabled, not retried. */
export type PushResult = 'sent' | 'gone';

export interface PushTransport {
  /** Creates (or repairs) the delivery endpoint of a token; answers its address, if the transport keeps one. */
  register(registration: PushRegistration): Promise<string | null>;
  /** Deletes a token's endpoint. */
  unregister(target: PushTarget): Promise<void>;
  send(target: PushTarget, message: PushMessage): Promise<PushResult>;
}
