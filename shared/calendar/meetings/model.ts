import { personOf } from '../../people/person-views.ts';
import { getUsers } from '../../people/users.ts';
import { shownLink } from '../../util/links.ts';
import { isSuperAdmin, type Viewer } from '../people.ts';

/** Meeting types and derived statuses. */
export const MEETING_TYPES = ['project', 'internal', 'client', 'general'] as const;
export type MeetingType = (typeof MEETING_TYPES)[number];
export const MEETING_STATUSES = ['UPCOMING', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** The meeting: the one item every answer is built from (seats only index it). */
export interface MeetingItem {
  pk: string;
  sk: string;
  entity: 'Meeting';
  id: string;
  topic: string;
  description: string;
  /** As given (offset kept); `startUtc` / `endUtc` are the same instants in UTC for keys and filters. */
  startsAt: string;
  endsAt: string;
  startUtc: string;
  endUtc: string;
  type: MeetingType;
  meetLink: string;
  recordingLink: string | null;
  transcriptLink: string | null;
  organizerId: string;
  /** Internal participants, in the order given, without duplicates and never the organizer. */
  participantIds: string[];
  externalEmails: string[];
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Bumped by every write: the optimistic lock, the seats' freshness and the iCalendar SEQUENCE. */
  version: number;
  actorId: string;
}

/** One internal participant's entry in their calendar indexes (gsi1/gsi2 `MEETINGS#<userId>`). */
export interface MeetingSeatItem {
  pk: string;
  sk: string;
  entity: 'MeetingSeat';
  meetingId: string;
  userId: string;
  startUtc: string;
  endUtc: string;
  version: number;
}

export function statusOf(m: Pick<MeetingItem, 'cancelledAt' | 'startUtc' | 'endUtc'>, now: Date): MeetingStatus {
  if (m.cancelledAt) return 'CANCELLED';
  const t = now.getTime();
  if (t < Date.parse(m.startUtc)) return 'UPCOMING';
  if (t < Date.parse(m.endUtc)) return 'IN_PROGRESS';
  return 'COMPLETED';
}

export const hasStarted = (m: Pick<MeetingItem, 'startUtc'>, now: Date) => now.getTime() >= Date.parse(m.startUtc);

/** Organizer, participants and super admins see a meeting; anybody else is told it does not exist. */
export const canSee = (m: MeetingItem, viewer: Viewer) =>
  m.organizerId === viewer.userId || m.participantIds.includes(viewer.userId) || isSuperAdmin(viewer);

/** Meeting answers, people read fresh in one batch for the whole list. */
export async function toMeetings(meetings: MeetingItem[], viewer: Viewer, now = new Date()) {
  const people = await getUsers(meetings.flatMap((m) => [m.organizerId, ...m.participantIds]));
  const participant = (id: string) => {
    const u = people.get(id);
    return u ? personOf(u) : null;
  };
  return meetings.map((m) => ({
    id: m.id,
    topic: m.topic,
    description: m.description ?? '',
    startsAt: m.startsAt,
    endsAt: m.endsAt,
    status: statusOf(m, now),
    type: m.type,
    meetLink: shownLink(m.meetLink),
    recordingLink: m.recordingLink ?? null,
    transcriptLink: m.transcriptLink ?? null,
    organizer: participant(m.organizerId) ?? { id: m.organizerId, name: '', email: '', image: null },
    participants: m.participantIds.map(participant).filter((p): p is NonNullable<typeof p> => p !== null),
    externalEmails: m.externalEmails ?? [],
    canManage: m.organizerId === viewer.userId,
  }));
}
