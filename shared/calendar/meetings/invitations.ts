import { notifyMany } from '../../notifications/notify-many.ts';
import { logger } from '../../observability/logger.ts';
import type { UserItem } from '../../people/users.ts';
import { emailTransport } from '../../transports/email.ts';
import { inPool } from '../../util/in-pool.ts';
import { shownLink } from '../../util/links.ts';
import { buildICalendar, type CalendarMethod } from '../ical.ts';
import type { MeetingItem } from './entities.ts';

/**
 * What invitees hear about a meeting: every internal participant
 * and external address (never the organizer) gets an e-mail with an iCalendar file (REQUEST on create,
 * a REQUEST with a higher SEQUENCE on change, CANCEL on cancel); internal participants also get a
 * `meeting` notification on create and cancel. Deleting a meeting tells nobody.
 *
 * Mail goes out after the meeting is stored: a failed delivery is logged, never turned into an error
 * for a change that already happened.
 */
export type MeetingMessage = 'invite' | 'update' | 'cancel';

const METHOD: Record<MeetingMessage, CalendarMethod> = { invite: 'REQUEST', update: 'REQUEST', cancel: 'CANCEL' };
const SUBJECT: Record<MeetingMessage, string> = {
  invite: 'Invitation',
  update: 'Updated invitation',
  cancel: 'Cancelled',
};
const MAIL_CONCURRENCY = 8;

export interface Invitees {
  /** Internal participants (their profiles, for the address and name). */
  people: UserItem[];
  externalEmails: string[];
}

export const calendarUid = (meetingId: string) => `meeting-${meetingId}@workplace`;

/** The iCalendar file of a meeting message; attendees are everyone invited at this version. */
/** What an invitation shows of a meeting and its people. */
type InvitedMeeting = Pick<
  MeetingItem,
  'id' | 'version' | 'startUtc' | 'endUtc' | 'topic' | 'description' | 'meetLink' | 'externalEmails'
>;
type Invitee = Pick<UserItem, 'name' | 'email'>;

export function meetingCalendar(
  kind: MeetingMessage,
  m: InvitedMeeting,
  organizer: Invitee,
  participants: Invitee[],
  at = new Date(),
): string {
  return buildICalendar({
    method: METHOD[kind],
    uid: calendarUid(m.id),
    sequence: m.version - 1,
    startUtc: m.startUtc,
    endUtc: m.endUtc,
    summary: m.topic,
    description: m.description,
    location: shownLink(m.meetLink),
    organizer: { name: organizer.name, email: organizer.email },
    attendees: [
      ...participants.map((p) => ({ name: p.name, email: p.email })),
      ...m.externalEmails.map((email) => ({ email })),
    ],
    stampedAt: at,
  });
}

function mailBody(kind: MeetingMessage, m: MeetingItem, organizer: UserItem): string {
  const lead = {
    invite: `${organizer.name} invited you to a meeting.`,
    update: `${organizer.name} changed a meeting you are invited to.`,
    cancel: `${organizer.name} cancelled a meeting you were invited to.`,
  }[kind];
  return [
    lead,
    '',
    `Topic: ${m.topic}`,
    `Starts: ${m.startsAt}`,
    `Ends: ${m.endsAt}`,
    ...(shownLink(m.meetLink) ? [`Join: ${shownLink(m.meetLink)}`] : []),
    ...(m.description ? ['', m.description] : []),
    '',
    'The attached calendar file updates your calendar.',
  ].join('\n');
}

/** E-mails one message about the meeting to these invitees. */
export async function emailInvitees(
  kind: MeetingMessage,
  m: MeetingItem,
  organizer: UserItem,
  allParticipants: UserItem[],
  to: Invitees,
): Promise<void> {
  const content = meetingCalendar(kind, m, organizer, allParticipants);
  const attachment = {
    filename: 'invite.ics',
    contentType: `text/calendar; charset=utf-8; method=${METHOD[kind]}`,
    content,
  };
  const subject = `${SUBJECT[kind]}: ${m.topic}`;
  const body = mailBody(kind, m, organizer);
  const addresses = [...new Set([...to.people.map((p) => p.email.toLowerCase()), ...to.externalEmails])].filter(
    (a) => a !== organizer.email.toLowerCase(),
  );
  await inPool(addresses, MAIL_CONCURRENCY, async (address) => {
    try {
      await emailTransport().send({ to: address, subject, body, attachments: [attachment] });
    } catch (err) {
      logger.error('meeting e-mail not sent', { meetingId: m.id, kind, error: (err as Error).message });
    }
  });
}

/** `meeting` notifications (actor: the organizer) to these internal participants. */
export async function notifyParticipants(kind: 'invite' | 'cancel', m: MeetingItem, userIds: string[]): Promise<void> {
  const preview = kind === 'invite' ? `Invited you to ${m.topic}` : `Cancelled ${m.topic}`;
  await notifyMany(userIds.map((recipientId) => ({ recipientId, kind: 'meeting', actorId: m.organizerId, preview })));
}
