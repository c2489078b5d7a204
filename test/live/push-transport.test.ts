import {
  CreatePlatformEndpointCommand,
  EndpointDisabledException,
  GetEndpointAttributesCommand,
  InvalidParameterException,
  NotFoundException,
  PublishCommand,
  SetEndpointAttributesCommand,
  SNSClient,
} from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { SnsPushTransport, snsPushPayload } from '../../shared/transports/sns-push.ts';

const sns = mockClient(SNSClient);
const FCM = 'arn:aws:sns:eu-west-1:1:app/GCM/workplace';
const APNS = 'arn:aws:sns:eu-west-1:1:app/APNS/workplace';
const transport = () =>
  new SnsPushTransport(new SNSClient({ region: 'eu-west-1' }), { web: FCM, android: FCM, ios: APNS });
const message = { title: 'Ana mentioned you', body: 'hi @you', link: '/feed#post-p1', kind: 'mention' };
const target = {
  userId: 'u1',
  platform: 'android' as const,
  endpointArn: 'arn:aws:sns:eu-west-1:1:endpoint/GCM/workplace/e1',
};

beforeEach(() => sns.reset());

describe('SNS push payload', () => {
  it('carries the notification block and the same data for FCM (web, android) and APNs, content-available on iOS', () => {
    const published = JSON.parse(snsPushPayload(message));
    expect(published.default).toBe('hi @you');
    const fcm = JSON.parse(published.GCM).fcmV1Message.message;
    expect(fcm.notification).toEqual({ title: message.title, body: message.body });
    expect(fcm.data).toEqual(message);
    expect(fcm.webpush.fcm_options.link).toBe('/feed#post-p1');
    for (const key of ['APNS', 'APNS_SANDBOX']) {
      const apns = JSON.parse(published[key]);
      expect(apns.aps.alert).toEqual({ title: message.title, body: message.body });
      expect(apns.aps['content-available']).toBe(1);
      expect({ title: apns.title, body: apns.body, link: apns.link, kind: apns.kind }).toEqual(message);
    }
  });
});

describe('SNS push transport', () => {
  it('publishes JSON-structured messages to the endpoint', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'm1' });
    expect(await transport().send(target, message)).toBe('sent');
    const call = sns.commandCalls(PublishCommand)[0].args[0].input;
    expect(call).toMatchObject({ TargetArn: target.endpointArn, MessageStructure: 'json' });
    expect(JSON.parse(call.Message!)).toEqual(JSON.parse(snsPushPayload(message)));
  });

  it('reports a disabled or deleted endpoint as gone, and other failures as errors', async () => {
    const failures = [
      new EndpointDisabledException({ message: 'Endpoint is disabled', $metadata: {} }),
      new NotFoundException({ message: 'Endpoint does not exist', $metadata: {} }),
      new InvalidParameterException({
        message: 'Invalid parameter: TargetArn Reason: No endpoint found for the target arn specified',
        $metadata: {},
      }),
    ];
    for (const failure of failures) {
      sns.reset();
      sns.on(PublishCommand).rejects(failure);
      expect(await transport().send(target, message)).toBe('gone');
    }
    sns.reset();
    sns.on(PublishCommand).rejects(new Error('throttled'));
    await expect(transport().send(target, message)).rejects.toThrow('throttled');
  });

  it('creates the endpoint in the platform application of the token: FCM for web and android, APNs for ios', async () => {
    sns.on(CreatePlatformEndpointCommand).resolves({ EndpointArn: 'arn:e' });
    sns
      .on(GetEndpointAttributesCommand)
      .resolves({ Attributes: { Token: 't1', Enabled: 'true', CustomUserData: 'u1' } });
    for (const [platform, app] of [
      ['web', FCM],
      ['android', FCM],
      ['ios', APNS],
    ] as const) {
      sns.resetHistory();
      expect(await transport().register({ userId: 'u1', platform, token: 't1', endpointArn: null })).toBe('arn:e');
      expect(sns.commandCalls(CreatePlatformEndpointCommand)[0].args[0].input).toEqual({
        PlatformApplicationArn: app,
        Token: 't1',
        CustomUserData: 'u1',
      });
      expect(sns.commandCalls(SetEndpointAttributesCommand)).toHaveLength(0);
    }
  });

  it('re-enables a disabled endpoint and moves a device to its new owner', async () => {
    sns
      .on(GetEndpointAttributesCommand)
      .resolves({ Attributes: { Token: 't1', Enabled: 'false', CustomUserData: 'u0' } });
    sns.on(SetEndpointAttributesCommand).resolves({});
    expect(await transport().register({ userId: 'u1', platform: 'ios', token: 't1', endpointArn: 'arn:known' })).toBe(
      'arn:known',
    );
    expect(sns.commandCalls(CreatePlatformEndpointCommand)).toHaveLength(0);
    expect(sns.commandCalls(SetEndpointAttributesCommand)[0].args[0].input).toEqual({
      EndpointArn: 'arn:known',
      Attributes: { Token: 't1', Enabled: 'true', CustomUserData: 'u1' },
    });
  });

  it('reuses the endpoint SNS already has for the token when its attributes differ', async () => {
    sns.on(CreatePlatformEndpointCommand).rejects(
      new InvalidParameterException({
        message:
          'Invalid parameter: Token Reason: Endpoint arn:aws:sns:eu-west-1:1:endpoint/GCM/workplace/old already exists with the same Token, but different attributes.',
        $metadata: {},
      }),
    );
    sns
      .on(GetEndpointAttributesCommand)
      .resolves({ Attributes: { Token: 't1', Enabled: 'true', CustomUserData: 'u0' } });
    sns.on(SetEndpointAttributesCommand).resolves({});
    expect(await transport().register({ userId: 'u1', platform: 'web', token: 't1', endpointArn: null })).toBe(
      'arn:aws:sns:eu-west-1:1:endpoint/GCM/workplace/old',
    );
    expect(sns.commandCalls(SetEndpointAttributesCommand)).toHaveLength(1);
  });

  it('creates a new endpoint when the stored one was deleted', async () => {
    sns
      .on(GetEndpointAttributesCommand, { EndpointArn: 'arn:deleted' })
      .rejects(new NotFoundException({ message: 'Endpoint does not exist', $metadata: {} }));
    sns
      .on(GetEndpointAttributesCommand, { EndpointArn: 'arn:new' })
      .resolves({ Attributes: { Token: 't1', Enabled: 'true', CustomUserData: 'u1' } });
    sns.on(CreatePlatformEndpointCommand).resolves({ EndpointArn: 'arn:new' });
    expect(
      await transport().register({ userId: 'u1', platform: 'android', token: 't1', endpointArn: 'arn:deleted' }),
    ).toBe('arn:new');
  });

  it('refuses to register for a platform without a configured application', async () => {
    const bare = new SnsPushTransport(new SNSClient({ region: 'eu-west-1' }), {
      web: undefined,
      android: undefined,
      ios: undefined,
    });
    await expect(bare.register({ userId: 'u1', platform: 'ios', token: 't', endpointArn: null })).rejects.toThrow(
      /ios/,
    );
  });
});
