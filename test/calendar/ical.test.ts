import { describe, expect, it } from 'vitest';
import { buildICalendar, escapeText, foldLine } from '../../shared/calendar/ical.ts';
import { meetingCalendar } from '../../shared/calendar/meetings/invitations.ts';

const unfold = (ics: string) => ics.replace(/\r\n /g, '');
const lines = (ics: string) => unfold(ics).split('\r\n');

const meeting = {
  id: 'm1',
  topic: 'Plan Q3; budget, hiring',
  description: 'Line one\nLine two',
  startsAt: '2030-03-01T09:00:00+05:30',
  endsAt: '2030-03-01T10:00:00+05:30',
  startUtc: '2030-03-01T03:30:00.000Z',
  endUtc: '2030-03-01T04:30:00.000Z',
  meetLink: 'https://meet.example.com/room',
  externalEmails: ['guest@external.example.org'],
  version: 3,
};
const organizer = { id: 'o', name: 'Olga Organizer', email: 'olga@example.com' };
const participant = { id: 'p', name: 'Pat, Participant', email: 'pat@example.com' };

describe('iCalendar', () => {
  it('writes an invitation (METHOD:REQUEST) with UTC times, a stable UID and the invitees', () => {
    const ics = meetingCalendar('invite', meeting, organizer, [participant], new Date('2030-01-01T00:00:00Z'));
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toContain('\n');
    const l = lines(ics);
    expect(l.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'PRODID:-//Workplace//Meetings//EN']);
    expect(l).toContain('METHOD:REQUEST');
    expect(l).toContain('UID:meeting-m1@workplace');
    expect(l).toContain('SEQUENCE:2');
    expect(l).toContain('DTSTAMP:20300101T000000Z');
    expect(l).toContain('DTSTART:20300301T033000Z');
    expect(l).toContain('DTEND:20300301T043000Z');
    expect(l).toContain('SUMMARY:Plan Q3\\; budget\\, hiring');
    expect(l).toContain('DESCRIPTION:Line one\\nLine two');
    expect(l).toContain('LOCATION:https://meet.example.com/room');
    expect(l).toContain('ORGANIZER;CN=Olga Organizer:mailto:olga@example.com');
    expect(l).toContain(
      'ATTENDEE;CN="Pat, Participant";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:pat@example.com',
    );
    expect(l).toContain(
      'ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:guest@external.example.org',
    );
    expect(l).toContain('STATUS:CONFIRMED');
    expect(l.filter((x) => x === 'BEGIN:VEVENT')).toHaveLength(1);
  });

  it('writes a cancellation (METHOD:CANCEL, STATUS:CANCELLED) for the same UID', () => {
    const l = lines(meetingCalendar('cancel', { ...meeting, version: 4 }, organizer, [participant]));
    expect(l).toContain('METHOD:CANCEL');
    expect(l).toContain('STATUS:CANCELLED');
    expect(l).toContain('UID:meeting-m1@workplace');
    expect(l).toContain('SEQUENCE:3');
  });

  it('folds long lines at 75 octets without splitting a character, and unfolds to the original', () => {
    const summary = `Kickoff ${'é'.repeat(60)} ${'x'.repeat(100)}`;
    const ics = buildICalendar({
      method: 'REQUEST',
      uid: 'u',
      sequence: 0,
      startUtc: meeting.startUtc,
      endUtc: meeting.endUtc,
      summary,
      description: '',
      location: '',
      organizer: { email: 'o@example.com' },
      attendees: [],
      stampedAt: new Date(),
    });
    for (const raw of ics.split('\r\n')) expect(Buffer.byteLength(raw, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines(ics)).toContain(`SUMMARY:${summary}`);
    expect(foldLine('short')).toBe('short');
    expect(escapeText('a\\b')).toBe('a\\\\b');
  });
});
