/**
 * iCalendar (RFC 5545 / iTIP RFC 5546) for meeting e-mail: `METHOD:REQUEST` invites and updates
 * (the same UID with a higher SEQUENCE replaces the earlier copy in the guest's calendar) and
 * `METHOD:CANCEL` cancellations.
 */
export type CalendarMethod = 'REQUEST' | 'CANCEL';

export interface CalendarPerson {
  name?: string;
  email: string;
}

export interface CalendarInvite {
  method: CalendarMethod;
  /** Stable across every message about one meeting. */
  uid: string;
  /** Grows with every change (iTIP: a higher sequence supersedes). */
  sequence: number;
  startUtc: string;
  endUtc: string;
  summary: string;
  description: string;
  /** Where to join (the meeting link). */
  location: string;
  organizer: CalendarPerson;
  attendees: CalendarPerson[];
  stampedAt: Date;
}

const CRLF = '\r\n';

/** `2026-03-01T09:00:00.000Z` → `20260301T090000Z`. */
export const icsDateTime = (iso: string) => `${new Date(iso).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/** TEXT value escaping (RFC 5545 3.3.11). */
export const escapeText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

/** A parameter value: quoted when it holds separators; double quotes are not allowed at all. */
const paramValue = (s: string) => {
  const clean = s.replace(/["\r\n]/g, '');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
};

/** Folds a content line at 75 octets (RFC 5545 3.1) without splitting a UTF-8 character. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with a space
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join(`${CRLF} `);
}

const person = (property: string, p: CalendarPerson, extra: string[] = []) =>
  [property, ...(p.name ? [`CN=${paramValue(p.name)}`] : []), ...extra].join(';') + `:mailto:${p.email}`;

export function buildICalendar(invite: CalendarInvite): string {
  const cancelled = invite.method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID:-//Workplace//Meetings//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${invite.method}`,
    'BEGIN:VEVENT',
    `UID:${invite.uid}`,
    `SEQUENCE:${invite.sequence}`,
    `DTSTAMP:${icsDateTime(invite.stampedAt.toISOString())}`,
    `DTSTART:${icsDateTime(invite.startUtc)}`,
    `DTEND:${icsDateTime(invite.endUtc)}`,
    `SUMMARY:${escapeText(invite.summary)}`,
    ...(invite.description ? [`DESCRIPTION:${escapeText(invite.description)}`] : []),
    ...(invite.location ? [`LOCATION:${escapeText(invite.location)}`] : []),
    ...(/^https?:\/\//i.test(invite.location) && !/[\s"]/.test(invite.location) ? [`URL:${invite.location}`] : []),
    person('ORGANIZER', invite.organizer),
    ...invite.attendees.map((a) =>
      person(
        'ATTENDEE',
        a,
        cancelled ? ['ROLE=REQ-PARTICIPANT'] : ['ROLE=REQ-PARTICIPANT', 'PARTSTAT=NEEDS-ACTION', 'RSVP=TRUE'],
      ),
    ),
    `STATUS:${cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
