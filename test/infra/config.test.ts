import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { scheduleExpression } from '../../infra/stacks/background-stack.ts';
import { readConfig } from '../../infra/stacks/config.ts';
import { mailAddressOf } from '../../infra/stacks/shared-data.ts';

/** Context parsing and the schedule expressions, without synthesis. */
const config = (context: Record<string, unknown>) => readConfig(new App({ context }));

describe('deployment settings from context', () => {
  it('has defaults for everything optional', () => {
    const c = config({});
    expect(c).toMatchObject({ prefix: 'Workplace', companyTimezone: 'UTC', edge: true, push: {} });
    expect(c.domain).toBeUndefined();
    expect(c.adminEmail).toBeUndefined();
  });

  it('takes the grievance periods from context; retention is off unless set, and at least 30 days', () => {
    expect(config({}).grievances).toEqual({ ackDays: 7, feedbackDays: 90, retentionDays: undefined });
    expect(
      config({
        'workplace:grievanceAckDays': '5',
        'workplace:grievanceFeedbackDays': '60',
        'workplace:grievanceRetentionDays': '365',
      }).grievances,
    ).toEqual({ ackDays: 5, feedbackDays: 60, retentionDays: 365 });
    expect(() => config({ 'workplace:grievanceRetentionDays': '29' })).toThrow(/grievanceRetentionDays/);
    expect(() => config({ 'workplace:grievanceAckDays': '0' })).toThrow(/grievanceAckDays/);
  });

  it('takes the people retention from context: off unless set, and at least 30 days (docs/people-data.md)', () => {
    expect(config({}).peopleRetentionDays).toBeUndefined();
    expect(config({ 'workplace:peopleRetentionDays': '30' }).peopleRetentionDays).toBe(30);
    expect(config({ 'workplace:peopleRetentionDays': 400 }).peopleRetentionDays).toBe(400);
    expect(() => config({ 'workplace:peopleRetentionDays': '29' })).toThrow(/peopleRetentionDays=29/);
    expect(() => config({ 'workplace:peopleRetentionDays': '45.5' })).toThrow(/peopleRetentionDays/);
  });

  it('loads source maps at run time only when workplace:sourceMaps is true (they slow every cold start)', () => {
    expect(config({}).sourceMaps).toBe(false);
    expect(config({ 'workplace:sourceMaps': 'false' }).sourceMaps).toBe(false);
    expect(config({ 'workplace:sourceMaps': 'true' }).sourceMaps).toBe(true);
  });

  it('takes the custom domain only with its certificate', () => {
    expect(() => config({ 'workplace:domainName': 'w.example.org' })).toThrow(/certificateArn/);
    expect(
      config({
        'workplace:domainName': 'w.example.org',
        'workplace:certificateArn': 'arn:aws:acm:us-east-1:1:certificate/x',
      }).domain,
    ).toEqual({ name: 'w.example.org', certificateArn: 'arn:aws:acm:us-east-1:1:certificate/x' });
  });

  it('takes a platform application as an ARN or as an SSM parameter resolved at deploy, not both', () => {
    const c = config({
      'workplace:fcmPlatformApplicationArn': 'arn:aws:sns:eu-west-1:1:app/GCM/w',
      'workplace:apnsPlatformApplicationParameter': '/w/apns',
    });
    expect(c.push).toEqual({
      fcmApplicationArn: 'arn:aws:sns:eu-west-1:1:app/GCM/w',
      apnsApplicationArn: '{{resolve:ssm:/w/apns}}',
    });
    expect(() =>
      config({ 'workplace:fcmPlatformApplicationArn': 'a', 'workplace:fcmPlatformApplicationParameter': '/b' }),
    ).toThrow(/not both/);
  });

  it('reads the stream reservation, the API throttling and the concurrency quota, with defaults', () => {
    expect(config({})).toMatchObject({
      streamReservedConcurrency: 400,
      apiThrottle: { rateLimit: 500, burstLimit: 1000 },
      accountConcurrencyLimit: 1000,
    });
    expect(
      config({
        'workplace:streamReservedConcurrency': '250',
        'workplace:apiRateLimit': 50,
        'workplace:apiBurstLimit': '80',
        'workplace:accountConcurrencyLimit': '3000',
      }),
    ).toMatchObject({
      streamReservedConcurrency: 250,
      apiThrottle: { rateLimit: 50, burstLimit: 80 },
      accountConcurrencyLimit: 3000,
    });
    expect(() => config({ 'workplace:streamReservedConcurrency': '0' })).toThrow(/at least 1/);
    // Lambda keeps 100 executions unreserved.
    expect(() => config({ 'workplace:streamReservedConcurrency': '901' })).toThrow(/more than the account can give/);
    expect(config({ 'workplace:streamReservedConcurrency': '900' }).streamReservedConcurrency).toBe(900);
    // A fresh account's real quota (written by the preflight) cannot give the default 400.
    expect(() => config({ 'workplace:accountConcurrencyLimit': '50' })).toThrow(/leaves 0/);
    // Another environment's reservation in the same account comes out of the same pool.
    expect(() =>
      config({
        'workplace:accountConcurrencyLimit': '1000',
        'workplace:otherReservedConcurrency': '400',
        'workplace:streamReservedConcurrency': '501',
      }),
    ).toThrow(/workplace:otherReservedConcurrency/);
    expect(() => config({ 'workplace:apiRateLimit': 'many' })).toThrow(/whole number/);
  });

  it('takes the API certificate only with the custom domain', () => {
    expect(() => config({ 'workplace:apiCertificateArn': 'arn:aws:acm:eu-west-1:1:certificate/y' })).toThrow(
      /domainName/,
    );
  });

  it('leaves the edge stack out for LocalStack', () => {
    expect(config({ 'workplace:edge': 'false' }).edge).toBe(false);
    expect(config({ 'workplace:edge': false }).edge).toBe(false);
  });

  it('reads the sender address out of MAIL_FROM', () => {
    expect(mailAddressOf('Workplace <no-reply@example.org>')).toBe('no-reply@example.org');
    expect(mailAddressOf('hr@example.org')).toBe('hr@example.org');
    expect(() => mailAddressOf('Workplace')).toThrow(/no e-mail address/);
  });
});

describe('schedule expressions', () => {
  const render = (s: Parameters<typeof scheduleExpression>[0], tz = 'Europe/Berlin') => {
    const e = scheduleExpression(s, tz);
    return { expression: new Stack().resolve(e.expressionString), timeZone: e.timeZone?.timezoneName };
  };

  it('turns everySeconds into a rate in minutes', () => {
    expect(render({ name: 'a', handler: 'h', everySeconds: 60 }).expression).toBe('rate(1 minute)');
    expect(render({ name: 'a', handler: 'h', everySeconds: 300 }).expression).toBe('rate(5 minutes)');
    expect(() => render({ name: 'a', handler: 'h', everySeconds: 30 })).toThrow(/whole number of minutes/);
    expect(() => render({ name: 'a', handler: 'h', everySeconds: 90 })).toThrow(/whole number of minutes/);
  });

  it('turns dailyAt into a daily cron in the company timezone', () => {
    expect(render({ name: 'b', handler: 'h', dailyAt: '07:30' })).toEqual({
      expression: 'cron(30 7 * * ? *)',
      timeZone: 'Europe/Berlin',
    });
    expect(() => render({ name: 'b', handler: 'h', dailyAt: '24:00' })).toThrow(/HH:MM/);
    expect(() => render({ name: 'b', handler: 'h' })).toThrow(/exactly one/);
  });
});
