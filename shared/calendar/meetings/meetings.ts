import { newSortableId } from '../../db/ids.ts';
import { retryOnConflict, type TransactItem } from '../../db/table.ts';
import { conflict, forbidden, invalid, notFound } from '../../errors.ts';
import { logger } from '../../observability/logger.ts';
import { getUsers, type UserItem } from '../../people/users.ts';
import { instant } from '../../util/time.ts';
import type { Viewer } from '../people.ts';
import { Meeting, type MeetingItem, MeetingSeat } from './entities.ts';
import { emailInvitees, type MeetingMessage, notifyParticipants } from './invitations.ts';
import { bookExternalMail, bookWhatIsLeft, mailedByChange } from './mail-quota.ts';
import { canSee, hasStarted } from './model.ts';
import { commitMeeting, getMeeting, seatWrites } from './store.ts';
import type { MeetingType } from './types.ts';

/**
 * Meetings: created by anyone with internal participants and
 * external addresses; changed, cancelled or deleted only by the organizer and only before the start
 * (409 after); recording and transcript links at any time. Every write replaces the meeting item under
 * a version condition, so concurrent changes never lose one another; a lost race re-reads and decides
 * again (which is how a change racing the start or a cancellation gets its 409).
 */
export interface MeetingInput {
  topic: string;
  description?: string;
  startsAt: string;
  endsAt: string;
  internalParticipantIds: string[];
  externalEmails: string[];
  type: MeetingType;
  meetLink: string;
}

export type MeetingChanges = Partial<MeetingInput>;

const ATTEMPTS = 4;

/** Internal participants as stored: distinct, without the organizer, each an existing person (400 otherwise). */
async function resolveParticipants(ids: string[], organizerId: string): Promise<{ ids: string[]; people: UserItem[] }> {
  const unique = [...new Set(ids)].filter((id) => id !== organizerId);
  const found = await getUsers(unique);
  const unknown = unique.filter((id) => !found.has(id));
  if (unknown.length) throw invalid([`internalParticipantIds: no such person: ${unknown.join(', ')}`]);
  return { ids: unique, people: unique.map((id) => found.get(id)!) };
}

const normaliseEmails = (emails: string[]) => [...new Set(emails.map((e) => e.trim().toLowerCase()))];

/** Validated times: a start not in the past (when it is being set) and an end after it. */
function meetingTimes(startsAt: string, endsAt: string, now: Date, startIsNew: boolean) {
  const start = instant(startsAt);
  const end = instant(endsAt);
  if (startIsNew && start.ms < now.getTime()) throw invalid(['startsAt: a meeting cannot start in the past']);
  if (end.ms <= start.ms) throw invalid(['endsAt: must be after startsAt']);
  return { startsAt: start.iso, endsAt: end.iso, startUtc: start.utc, endUtc: end.utc };
}

/** Replaces the meeting item if nobody changed it since it was read (and, unless `anyTime`, it has not started). */
function replaceWrite(next: MeetingItem, previous: MeetingItem, now: Date, anyTime = false): TransactItem {
  return Meeting.put(next, {
    ConditionExpression: anyTime ? 'version = :v' : 'version = :v AND startUtc > :now',
    ExpressionAttributeValues: anyTime
      ? { ':v': previous.version }
      : { ':v': previous.version, ':now': now.toISOString() },
  });
}

/** Re-runs a read-decide-write step when another write got there first. */
const retryOnRace = <T>(step: () => Promise<T>) =>
  retryOnConflict(step, {
    attempts: ATTEMPTS,
    exhausted: () => conflict('The meeting changed while this request ran. Try again.'),
  });

/** Tells invitees after the change is stored; a failure here is logged, the change stands. */
async function tell(work: () => Promise<void>, meetingId: string, what: string): Promise<void> {
  try {
    await work();
  } catch (err) {
    logger.error('meeting invitees not told', { meetingId, what, error: (err as Error).message });
  }
}

export async function createMeeting(organizer: UserItem, input: MeetingInput, now = new Date()): Promise<MeetingItem> {
  const times = meetingTimes(input.startsAt, input.endsAt, now, true);
  const participants = await resolveParticipants(input.internalParticipantIds, organizer.id);
  const id = newSortableId(now);
  const meeting = Meeting.item({
    id,
    topic: input.topic.trim(),
    description: input.description ?? '',
    ...times,
    type: input.type,
    meetLink: input.meetLink.trim(),
    recordingLink: null,
    transcriptLink: null,
    organizerId: organizer.id,
    participantIds: participants.ids,
    externalEmails: normaliseEmails(input.externalEmails),
    cancelledAt: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    version: 1,
    actorId: organizer.id,
  });
  await commitMeeting(
    Meeting.create(meeting),
    seatWrites(meeting, []),
    bookExternalMail(organizer.id, meeting.externalEmails.length, now),
    now,
  );
  await tell(() => notifyParticipants('invite', meeting, meeting.participantIds), id, 'notify invite');
  await tell(
    () =>
      emailInvitees('invite', meeting, organizer, participants.people, {
        people: participants.people,
        externalEmails: meeting.externalEmails,
      }),
    id,
    'email invite',
  );
  return meeting;
}

/** A meeting the viewer may read (404 for anybody else, as if it did not exist). */
export async function visibleMeeting(viewer: Viewer, meetingId: string): Promise<MeetingItem> {
  const m = await getMeeting(meetingId);
  if (!m || !canSee(m, viewer)) throw notFound('No such meeting.');
  return m;
}

/** A meeting the viewer is about to change: 404 if they cannot see it, 403 if they are not its organizer. */
async function organizersMeeting(viewer: Viewer, meetingId: string): Promise<MeetingItem> {
  const m = await visibleMeeting(viewer, meetingId);
  if (m.organizerId !== viewer.userId) throw forbidden('Only the organizer can change this meeting.');
  return m;
}

function assertChangeable(m: MeetingItem, now: Date, { cancelledAllowed }: { cancelledAllowed: boolean }) {
  if (!cancelledAllowed && m.cancelledAt) throw conflict('This meeting was cancelled.');
  if (hasStarted(m, now)) throw conflict('This meeting has already started.');
}

const next = (m: MeetingItem, actorId: string, now: Date, changes: Partial<MeetingItem>): MeetingItem =>
  Meeting.item({ ...m, ...changes, version: m.version + 1, updatedAt: now.toISOString(), actorId });

export async function updateMeeting(
  viewer: Viewer,
  meetingId: string,
  changes: MeetingChanges,
  now = new Date(),
): Promise<MeetingItem> {
  const outcome = await retryOnRace(async () => {
    const m = await organizersMeeting(viewer, meetingId);
    assertChangeable(m, now, { cancelledAllowed: false });
    const times =
      changes.startsAt !== undefined || changes.endsAt !== undefined
        ? meetingTimes(changes.startsAt ?? m.startsAt, changes.endsAt ?? m.endsAt, now, changes.startsAt !== undefined)
        : {};
    const participants = changes.internalParticipantIds
      ? await resolveParticipants(changes.internalParticipantIds, m.organizerId)
      : null;
    const fields: Partial<MeetingItem> = {
      ...(changes.topic !== undefined ? { topic: changes.topic.trim() } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.type !== undefined ? { type: changes.type } : {}),
      ...(changes.meetLink !== undefined ? { meetLink: changes.meetLink.trim() } : {}),
      ...(changes.externalEmails !== undefined ? { externalEmails: normaliseEmails(changes.externalEmails) } : {}),
      ...(participants ? { participantIds: participants.ids } : {}),
      ...times,
    };
    if (Object.keys(fields).length === 0) return { before: m, after: m };
    const after = next(m, viewer.userId, now, fields);
    const removed = m.participantIds.filter((id) => !after.participantIds.includes(id));
    const seatsMove = after.startUtc !== m.startUtc || after.endUtc !== m.endUtc || participants !== null;
    // Every change is told to the external addresses (tellAboutChange), so each counts.
    await commitMeeting(
      replaceWrite(after, m, now),
      seatsMove ? seatWrites(after, removed) : [],
      bookExternalMail(viewer.userId, mailedByChange(m.externalEmails, after.externalEmails), now),
      now,
    );
    return { before: m, after };
  });
  const { before, after } = outcome;
  if (after !== before) await tell(() => tellAboutChange(before, after), meetingId, 'change');
  return after;
}

/** After a change: an update to those still invited, an invitation to those added, a cancellation to those removed. */
async function tellAboutChange(before: MeetingItem, after: MeetingItem): Promise<void> {
  const people = await getUsers([after.organizerId, ...before.participantIds, ...after.participantIds]);
  const organizer = people.get(after.organizerId);
  if (!organizer) return;
  const profiles = (ids: string[]) => ids.map((id) => people.get(id)).filter((u): u is UserItem => !!u);
  const split = <T>(was: T[], now: T[]) => ({
    kept: now.filter((x) => was.includes(x)),
    added: now.filter((x) => !was.includes(x)),
    removed: was.filter((x) => !now.includes(x)),
  });
  const internal = split(before.participantIds, after.participantIds);
  const external = split(before.externalEmails, after.externalEmails);
  const everyone = profiles(after.participantIds);
  const send = (kind: MeetingMessage, ids: string[], emails: string[], attendees = everyone) =>
    emailInvitees(kind, after, organizer, attendees, { people: profiles(ids), externalEmails: emails });
  await notifyParticipants('invite', after, internal.added);
  await send('update', internal.kept, external.kept);
  await send('invite', internal.added, external.added);
  await send('cancel', internal.removed, external.removed, profiles(internal.removed));
}

export async function cancelMeeting(viewer: Viewer, meetingId: string, now = new Date()): Promise<MeetingItem> {
  const cancelled = await retryOnRace(async () => {
    const m = await organizersMeeting(viewer, meetingId);
    assertChangeable(m, now, { cancelledAllowed: false });
    const after = next(m, viewer.userId, now, { cancelledAt: now.toISOString() });
    await commitMeeting(replaceWrite(after, m, now), []);
    return after;
  });
  await tell(() => notifyParticipants('cancel', cancelled, cancelled.participantIds), meetingId, 'notify cancel');
  await tell(
    async () => {
      const people = await getUsers([cancelled.organizerId, ...cancelled.participantIds]);
      const participants = cancelled.participantIds.map((id) => people.get(id)).filter((u): u is UserItem => !!u);
      const organizer = people.get(cancelled.organizerId);
      if (!organizer) return;
      // External addresses count in the day's bound like every other meeting e-mail: only as many as
      // it still has room for are told (the cancellation itself is never refused).
      const room = await bookWhatIsLeft(viewer.userId, cancelled.externalEmails.length, now);
      if (room < cancelled.externalEmails.length)
        logger.warn('meeting cancellation not mailed to every external address: the daily bound is reached', {
          meetingId,
          mailed: room,
          skipped: cancelled.externalEmails.length - room,
        });
      await emailInvitees('cancel', cancelled, organizer, participants, {
        people: participants,
        externalEmails: cancelled.externalEmails.slice(0, room),
      });
    },
    meetingId,
    'email cancel',
  );
  return cancelled;
}

/** Deletes a meeting that has not started (a cancelled one too). Nobody is told. */
export async function deleteMeeting(viewer: Viewer, meetingId: string, now = new Date()): Promise<void> {
  await retryOnRace(async () => {
    const m = await organizersMeeting(viewer, meetingId);
    assertChangeable(m, now, { cancelledAllowed: true });
    const seats = m.participantIds.map((userId) => MeetingSeat.remove({ meetingId: m.id, userId }));
    await commitMeeting(
      Meeting.remove(m, {
        ConditionExpression: 'version = :v AND startUtc > :now',
        ExpressionAttributeValues: { ':v': m.version, ':now': now.toISOString() },
      }),
      seats,
    );
  });
}

/** Attaches or clears the recording and transcript links: the organizer, at any time. */
export async function setRecordingLinks(
  viewer: Viewer,
  meetingId: string,
  links: { recordingLink?: string | null; transcriptLink?: string | null },
  now = new Date(),
): Promise<MeetingItem> {
  return retryOnRace(async () => {
    const m = await organizersMeeting(viewer, meetingId);
    const fields: Partial<MeetingItem> = {
      ...(links.recordingLink !== undefined ? { recordingLink: links.recordingLink } : {}),
      ...(links.transcriptLink !== undefined ? { transcriptLink: links.transcriptLink } : {}),
    };
    if (Object.keys(fields).length === 0) return m;
    const after = next(m, viewer.userId, now, fields);
    await commitMeeting(replaceWrite(after, m, now, true), []);
    return after;
  });
}
