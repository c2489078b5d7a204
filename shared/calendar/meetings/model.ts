import { personOf } from '../../people/person-views.ts';
import { getUsers } from '../../people/users.ts';
import { shownLink } from '../../util/links.ts';
import { isSuperAdmin, type Viewer } from '../people.ts';
import type { MeetingItem } from './entities.ts';
import type { MeetingStatus } from './types.ts';

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
