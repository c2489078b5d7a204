import { standInCall } from '../aws/clients.ts';
import { transportChoice } from './choice.ts';
import { appendToOutbox } from './outbox.ts';
import type { PushTransport } from './push-types.ts';

/**
 * Outgoing push. Domain code goes through `pushTransport()`: SNS mobile push when deployed (a platform
 * endpoint per registered token: FCM for web and android, APNs for ios), the local outbox in the local
 * runtime (`APP_RUNTIME=local`). Tests install their own with `setPushTransport`.
 */

export type { PushMessage, PushPlatform, PushTarget, PushTransport } from './push-types.ts';

/** The local runtime's transport: every delivery attempt is one outbox entry. */
export const outboxPushTransport: PushTransport = {
  async register() {
    return null;
  },
  async unregister() {},
  async send(target, message) {
    // Deployed this is sns:Publish to the person's endpoint; registration creates none locally.
    standInCall('sns', 'sns:Publish', target.endpointArn ?? `endpoint/local/${target.userId}`);
    appendToOutbox({ channel: 'push', to: target.userId, ...message, data: { ...message } });
    return 'sent';
  },
};

/**
 * SNS mobile push (shared/transports/sns-push.ts), imported on the first delivery or registration:
 * the functions that may notify (most of them) bundle the SNS client but evaluate it only when they
 * push, not in every cold start (docs/cold-starts.md).
 */
function snsPushTransport(): PushTransport {
  let made: Promise<PushTransport> | undefined;
  const sns = () => (made ??= import('./sns-push.ts').then((m) => new m.SnsPushTransport()));
  return {
    register: async (registration) => (await sns()).register(registration),
    unregister: async (target) => (await sns()).unregister(target),
    send: async (target, message) => (await sns()).send(target, message),
  };
}

const choice = transportChoice<PushTransport>(outboxPushTransport, snsPushTransport);

export const pushTransport = choice.current;

/** Tests: replace the transport (undefined restores the one the environment chooses). */
export const setPushTransport = choice.install;
