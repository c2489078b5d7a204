import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { buildICalendar } from '../../shared/calendar/ical.ts';
import {
  type EmailMessage,
  emailTransport,
  outboxEmailTransport,
  SesEmailTransport,
  setEmailTransport,
} from '../../shared/transports/email.ts';
import { readOutbox } from '../../shared/transports/outbox.ts';
import { uniq } from '../support/api.ts';

const invite = (to: string, method: 'REQUEST' | 'CANCEL' = 'REQUEST'): EmailMessage => ({
  to,
  subject: 'Invitation: Café planning',
  body: 'You are invited.\nSee you there.',
  attachments: [
    {
      filename: 'invite.ics',
      contentType: `text/calendar; charset=utf-8; method=${method}`,
      content: buildICalendar({
        method,
        uid: 'meeting-x@workplace',
        sequence: 0,
        startUtc: '2030-03-01T03:30:00.000Z',
        endUtc: '2030-03-01T04:30:00.000Z',
        summary: 'Café planning',
        description: '',
        location: 'https://meet.example.com/x',
        organizer: { name: 'Olga', email: 'olga@example.com' },
        attendees: [{ email: to }],
        stampedAt: new Date(),
      }),
    },
  ],
});

/** The MIME parts of a raw message (nested multiparts flattened): headers and decoded body. */
function parts(raw: string): { headers: string; body: string }[] {
  const out: { headers: string; body: string }[] = [];
  const walk = (entity: string) => {
    const split = entity.indexOf('\r\n\r\n');
    const headers = entity.slice(0, split);
    const body = entity.slice(split + 4);
    const boundary = /boundary="([^"]+)"/.exec(headers)?.[1];
    if (/Content-Type: multipart\//i.test(headers) && boundary) {
      for (const chunk of body.split(`--${boundary}`).slice(1, -1))
        walk(chunk.replace(/^\r\n/, '').replace(/\r\n$/, ''));
      return;
    }
    out.push({
      headers,
      body: /base64/i.test(headers) ? Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8') : body,
    });
  };
  walk(raw);
  return out;
}

afterEach(() => setEmailTransport(undefined));

describe('SES transport', () => {
  it('sends one raw MIME message whose iCalendar part carries the method', async () => {
    const ses = mockClient(SESv2Client);
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const transport = new SesEmailTransport(
      new SESv2Client({ region: 'eu-west-1' }),
      'Workplace <no-reply@example.com>',
    );
    await transport.send(invite('guest@external.example.org'));

    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0].args[0].input;
    expect(input.FromEmailAddress).toBe('Workplace <no-reply@example.com>');
    expect(input.Destination?.ToAddresses).toEqual(['guest@external.example.org']);
    const raw = Buffer.from(input.Content!.Raw!.Data!).toString('utf8');
    expect(raw).toMatch(/^From: Workplace <no-reply@example.com>\r\n/);
    expect(raw).toContain('\r\nTo: guest@external.example.org\r\n');
    expect(raw).toContain(
      `\r\nSubject: =?UTF-8?B?${Buffer.from('Invitation: Café planning').toString('base64')}?=\r\n`,
    );
    expect(raw).toContain('\r\nMIME-Version: 1.0\r\n');
    expect(raw).toMatch(/Content-Type: multipart\/mixed; boundary=/);
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);

    const all = parts(raw);
    expect(all.find((p) => /text\/plain/.test(p.headers))?.body).toBe('You are invited.\nSee you there.');
    const calendars = all.filter((p) => /Content-Type: text\/calendar; charset=utf-8; method=REQUEST/.test(p.headers));
    expect(calendars).toHaveLength(2); // inline alternative + the invite.ics attachment
    expect(calendars.some((p) => /Content-Disposition: attachment; filename="invite.ics"/.test(p.headers))).toBe(true);
    for (const p of calendars) {
      expect(p.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
      expect(p.body).toContain('\r\nMETHOD:REQUEST\r\n');
      expect(p.body).toContain('SUMMARY:Café planning');
    }
    ses.restore();
  });

  it('lets SES failures reach the caller (who decides what a failed delivery means)', async () => {
    const ses = mockClient(SESv2Client);
    ses.on(SendEmailCommand).rejects(new Error('MessageRejected'));
    await expect(
      new SesEmailTransport(new SESv2Client({ region: 'eu-west-1' }), 'a@example.com').send(
        invite('x@example.org', 'CANCEL'),
      ),
    ).rejects.toThrow('MessageRejected');
    ses.restore();
  });
});

describe('choosing the transport', () => {
  it('uses the outbox in the local runtime, with the outbox entry shape', async () => {
    expect(process.env.APP_RUNTIME).toBe('local');
    expect(emailTransport()).toBe(outboxEmailTransport);
    const to = `guest-${uniq()}@external.example.org`;
    await emailTransport().send(invite(to, 'CANCEL'));
    const [entry] = readOutbox({ to, channel: 'email' });
    expect(Object.keys(entry).sort()).toEqual(['at', 'attachments', 'body', 'channel', 'subject', 'to']);
    expect(entry).toMatchObject({
      channel: 'email',
      to,
      subject: 'Invitation: Café planning',
      body: 'You are invited.\nSee you there.',
    });
    expect(entry.attachments).toHaveLength(1);
    expect(entry.attachments![0]).toMatchObject({
      filename: 'invite.ics',
      contentType: 'text/calendar; charset=utf-8; method=CANCEL',
    });
    expect(entry.attachments![0].content).toContain('METHOD:CANCEL');
  });

  it('uses an injected transport when a test installs one', async () => {
    const sent: EmailMessage[] = [];
    setEmailTransport({ send: async (m) => void sent.push(m) });
    await emailTransport().send(invite('a@example.org'));
    expect(sent.map((m) => m.to)).toEqual(['a@example.org']);
  });
});
