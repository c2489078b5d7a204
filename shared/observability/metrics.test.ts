import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SesEmailTransport } from '../transports/email.ts';
import { metrics, recordRequest } from './metrics.ts';

const added = () => vi.mocked(metrics.addMetric).mock.calls.map(([name]) => name);

describe('the metrics the operators alarm on', () => {
  afterEach(() => vi.restoreAllMocks());

  it('counts a designed 503 (the stream cap) apart from dependency and deadline 503s', () => {
    vi.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
    recordRequest(503, { capacityRefusal: true });
    expect(added()).toEqual(['Requests', 'CapacityRefused']);
    vi.mocked(metrics.addMetric).mockClear();
    recordRequest(503);
    expect(added()).toEqual(['Requests', 'DependencyUnavailable']);
    vi.mocked(metrics.addMetric).mockClear();
    recordRequest(500, { capacityRefusal: true });
    expect(added()).toEqual(['Requests', 'ServerErrors']);
  });

  it('counts mail that SES refuses, and still fails the send', async () => {
    vi.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
    const ses = mockClient(SESv2Client);
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    const transport = new SesEmailTransport(new SESv2Client({ region: 'eu-west-1' }), 'no-reply@corp.io');
    await expect(transport.send({ to: 'a@corp.io', subject: 's', body: 'b' })).rejects.toThrow(/not verified/);
    expect(added()).toEqual(['MailFailures']);
    ses.reset();
    ses.on(SendEmailCommand).resolves({ MessageId: '1' });
    vi.mocked(metrics.addMetric).mockClear();
    await transport.send({ to: 'a@corp.io', subject: 's', body: 'b' });
    expect(added()).toEqual([]);
    ses.restore();
  });
});
