import {
  CreatePlatformEndpointCommand,
  DeleteEndpointCommand,
  GetEndpointAttributesCommand,
  PublishCommand,
  SetEndpointAttributesCommand,
  SNSClient,
} from '@aws-sdk/client-sns';
import { awsClient } from '../aws/clients.ts';
import { env } from '../config/env.ts';
import type {
  PushMessage,
  PushPlatform,
  PushRegistration,
  PushResult,
  PushTarget,
  PushTransport,
} from './push-types.ts';

/** The SNS message for one publish: the notification block plus the data, per platform. */
export function snsPushPayload(message: PushMessage): string {
  const { title, body } = message;
  const data = { title: message.title, body: message.body, link: message.link, kind: message.kind };
  // FCM HTTP v1 through SNS (`fcmV1Message`): data values must be strings, which they are.
  const fcm = JSON.stringify({
    fcmV1Message: {
      message: {
        notification: { title, body },
        data,
        android: { priority: 'high' },
        webpush: { fcm_options: { link: message.link } },
      },
    },
  });
  // APNs: the alert draws the notification; content-available lets the app refresh in the background.
  const apns = JSON.stringify({ aps: { alert: { title, body }, sound: 'default', 'content-available': 1 }, ...data });
  return JSON.stringify({ default: body, GCM: fcm, APNS: apns, APNS_SANDBOX: apns });
}

const errorName = (err: unknown) => (err as { name?: string })?.name ?? '';
const isGone = (err: unknown) =>
  errorName(err) === 'EndpointDisabledException' ||
  errorName(err) === 'NotFoundException' ||
  (errorName(err) === 'InvalidParameterException' && /no endpoint found/i.test((err as Error).message ?? ''));

/** SNS mobile push: platform applications for FCM (web, android) and APNs (ios) come from the environment. */
export class SnsPushTransport implements PushTransport {
  constructor(
    private readonly client: SNSClient = awsClient('sns', new SNSClient({ region: env.region })),
    private readonly applications: Record<PushPlatform, string | undefined> = {
      web: env.pushFcmApplicationArn,
      android: env.pushFcmApplicationArn,
      ios: env.pushApnsApplicationArn,
    },
  ) {}

  /**
   * Creates the platform endpoint (idempotent for the same token and attributes); when SNS already has
   * one for this token with other attributes, reuses it. Then makes sure it is enabled and carries
   * this token, as SNS's own guidance for re-registration says.
   */
  async register(target: PushRegistration): Promise<string | null> {
    const application = this.applications[target.platform];
    if (!application) throw new Error(`no SNS platform application is configured for ${target.platform}`);
    let arn = target.endpointArn ?? (await this.createEndpoint(application, target));
    let attributes: Record<string, string> | undefined;
    try {
      attributes = (await this.client.send(new GetEndpointAttributesCommand({ EndpointArn: arn }))).Attributes;
    } catch (err) {
      if (!isGone(err)) throw err;
      arn = await this.createEndpoint(application, target);
      attributes = (await this.client.send(new GetEndpointAttributesCommand({ EndpointArn: arn }))).Attributes;
    }
    if (
      attributes?.Token !== target.token ||
      attributes?.Enabled !== 'true' ||
      attributes?.CustomUserData !== target.userId
    ) {
      await this.client.send(
        new SetEndpointAttributesCommand({
          EndpointArn: arn,
          Attributes: { Token: target.token, Enabled: 'true', CustomUserData: target.userId },
        }),
      );
    }
    return arn;
  }

  private async createEndpoint(application: string, target: { token: string; userId: string }): Promise<string> {
    try {
      const out = await this.client.send(
        new CreatePlatformEndpointCommand({
          PlatformApplicationArn: application,
          Token: target.token,
          CustomUserData: target.userId,
        }),
      );
      return out.EndpointArn!;
    } catch (err) {
      // "Endpoint <arn> already exists with the same Token, but different attributes."
      const existing = /Endpoint (arn:[^\s]+) already exists/i.exec((err as Error).message ?? '');
      if (errorName(err) === 'InvalidParameterException' && existing) return existing[1];
      throw err;
    }
  }

  async unregister(target: PushTarget): Promise<void> {
    if (!target.endpointArn) return;
    await this.client.send(new DeleteEndpointCommand({ EndpointArn: target.endpointArn })).catch((err) => {
      if (!isGone(err)) throw err;
    });
  }

  async send(target: PushTarget, message: PushMessage): Promise<PushResult> {
    if (!target.endpointArn) return 'gone';
    try {
      await this.client.send(
        new PublishCommand({
          TargetArn: target.endpointArn,
          MessageStructure: 'json',
          Message: snsPushPayload(message),
        }),
      );
      return 'sent';
    } catch (err) {
      if (isGone(err)) return 'gone';
      throw err;
    }
  }
}
