import { randomBytes } from 'node:crypto';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { awsClient, standInCall } from '../aws/clients.ts';
import { env } from '../config/env.ts';
import { metrics } from '../observability/metrics.ts';
import { transportChoice } from './choice.ts';
import { appendToOutbox } from './outbox.ts';

/**
 * Outgoing e-mail. Domain code sends through `emailTransport()`: Amazon SES (v2 SendEmail with a raw
 * MIME message, so attachments such as iCalendar invitations travel with it) when deployed, the local
 * outbox in the local runtime (`APP_RUNTIME=local`). Tests install their own with `setEmailTransport`.
 */
export interface EmailAttachment {
  filename: string;
  /** With parameters where they matter, e.g. `text/calendar; charset=utf-8; method=REQUEST`. */
  contentType: string;
  /** Text content (iCalendar files and the like). */
  content: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  body: string;
  attachments?: EmailAttachment[];
}

export interface EmailTransport {
  send(message: EmailMessage): Promise<void>;
}

/** The local runtime's transport: one outbox entry per message. */
export const outboxEmailTransport: EmailTransport = {
  async send(message) {
    standInCall('ses', 'ses:SendEmail', env.mailFrom);
    appendToOutbox({
      channel: 'email',
      to: message.to,
      subject: message.subject,
      body: message.body,
      attachments: (message.attachments ?? []).map(({ filename, contentType, content }) => ({
        filename,
        contentType,
        content,
      })),
    });
  },
};

/** Amazon SES v2: each message goes out as raw MIME. */
export class SesEmailTransport implements EmailTransport {
  constructor(
    private readonly client: SESv2Client = awsClient('ses', new SESv2Client({ region: env.region })),
    private readonly from: string = env.mailFrom,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    const raw = buildMimeMessage(this.from, message);
    try {
      await this.client.send(
        new SendEmailCommand({
          FromEmailAddress: this.from,
          Destination: { ToAddresses: [message.to] },
          Content: { Raw: { Data: Buffer.from(raw, 'utf8') } },
        }),
      );
    } catch (error) {
      // Callers log and carry on (mail is best effort): the metric is what the operators' alarm
      // watches, so a sandboxed account or an unverified sender does not go unnoticed.
      metrics.addMetric('MailFailures', MetricUnit.Count, 1);
      throw error;
    }
  }
}

const choice = transportChoice<EmailTransport>(outboxEmailTransport, () => new SesEmailTransport());

export const emailTransport = choice.current;

/** Tests: replace the transport (undefined restores the one the environment chooses). */
export const setEmailTransport = choice.install;

// ---------------------------------------------------------------- MIME

const CRLF = '\r\n';
const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);
/** RFC 2047 encoded word for header text that is not plain ASCII. */
const headerText = (s: string) => (isAscii(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`);
const base64Lines = (s: string) =>
  (
    Buffer.from(s, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join(CRLF);
const boundary = () => `=_${randomBytes(12).toString('hex')}`;
const fileParam = (name: string) => `"${name.replace(/["\\\r\n]/g, '_')}"`;

function part(headers: string[], body: string): string {
  return [...headers, '', body].join(CRLF);
}

function multipart(type: string, parts: string[]): { header: string; body: string } {
  const b = boundary();
  return {
    header: `multipart/${type}; boundary="${b}"`,
    body: [...parts.map((p) => `--${b}${CRLF}${p}`), `--${b}--`, ''].join(CRLF),
  };
}

/**
 * A raw MIME message: the text, and each attachment as a file. An iCalendar attachment is also offered
 * inline as an alternative to the text (with its `method`), which is how calendar clients recognise an
 * invitation, update or cancellation.
 */
export function buildMimeMessage(from: string, message: EmailMessage, at: Date = new Date()): string {
  const attachments = message.attachments ?? [];
  const text = part(
    ['Content-Type: text/plain; charset=UTF-8', 'Content-Transfer-Encoding: base64'],
    base64Lines(message.body),
  );
  const calendars = attachments.filter((a) => /^text\/calendar\b/i.test(a.contentType));
  const inline = calendars.map((a) =>
    part([`Content-Type: ${a.contentType}`, 'Content-Transfer-Encoding: base64'], base64Lines(a.content)),
  );
  const alternative = inline.length ? multipart('alternative', [text, ...inline]) : null;
  const mainPart = alternative ? part([`Content-Type: ${alternative.header}`], alternative.body) : text;
  const files = attachments.map((a) =>
    part(
      [
        `Content-Type: ${a.contentType}; name=${fileParam(a.filename)}`,
        `Content-Disposition: attachment; filename=${fileParam(a.filename)}`,
        'Content-Transfer-Encoding: base64',
      ],
      base64Lines(a.content),
    ),
  );
  const headers = [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${headerText(message.subject)}`,
    `Date: ${at.toUTCString()}`,
    `Message-ID: <${randomBytes(16).toString('hex')}@${domainOf(from)}>`,
    'MIME-Version: 1.0',
  ];
  if (files.length === 0) return [...headers, mainPart].join(CRLF);
  const mixed = multipart('mixed', [mainPart, ...files]);
  return [...headers, `Content-Type: ${mixed.header}`, '', mixed.body].join(CRLF);
}

const domainOf = (address: string) => /@([^>\s]+)/.exec(address)?.[1] ?? 'localhost';
