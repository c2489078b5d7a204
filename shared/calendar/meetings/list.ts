import { type QueryOptions, queryAll } from '../../db/table.ts';
import { isSuperAdmin, type Viewer } from '../people.ts';
import { instant } from '../time.ts';
import { Meeting, type MeetingItem, MeetingSeat } from './entities.ts';
import { canSee, statusOf } from './model.ts';
import type { MeetingStatus, MeetingType } from './types.ts';

/**
 * `GET /meetings`: a plain array, soonest first, of the meetings the
 * viewer organizes or joins (every meeting for a super admin, or one person's with `employeeId`).
 *
 * One Query on a calendar index chosen by the time filters, so the key range does the work:
 * `from` (meetings ending at or after it) reads the by-end index from `from` on; `to` alone (starting
 * at or before it) reads the by-start index up to `to`; both read by end and filter on the start.
 * Seats lead to their meetings in one BatchGet; every filter is then checked on the meeting itself.
 */
export interface MeetingFilters {
  from?: string;
  to?: string;
  employeeId?: string;
  type?: MeetingType;
  status?: MeetingStatus;
  search?: string;
}

function calendarQuery(owner: string | null, from: string | undefined, to: string | undefined): QueryOptions {
  // A person's calendar partitions hold their meetings and their seats alike (the meeting declares them).
  const byStart = Meeting.queryOptions(
    owner ? { index: 'calendarByStart', key: { organizerId: owner } } : { index: 'allByStart', key: {} },
  );
  const byEnd = Meeting.queryOptions(
    owner ? { index: 'calendarByEnd', key: { organizerId: owner } } : { index: 'allByEnd', key: {} },
  );
  // Sort keys are `<utc>#<id>`: `> from` keeps ends at or after `from`; `< to + '$'` keeps starts at or before `to` ('$' follows '#').
  if (from) {
    const startFilter = to
      ? { FilterExpression: 'startUtc <= :to', ExpressionAttributeValues: { ':to': to } }
      : undefined;
    return { ...byEnd, skAfter: from, filter: startFilter };
  }
  if (to) return { ...byStart, skBefore: `${to}$` };
  return byStart;
}

export async function listMeetings(viewer: Viewer, filters: MeetingFilters, now = new Date()) {
  // employeeId is honoured for super admins only; everybody else sees their own calendar.
  const owner = isSuperAdmin(viewer) ? (filters.employeeId ?? null) : viewer.userId;
  const from = filters.from ? instant(filters.from).utc : undefined;
  const to = filters.to ? instant(filters.to).utc : undefined;
  if (from && to && from > to) return [];
  const entries = await queryAll(calendarQuery(owner, from, to));
  const meetings = new Map<string, MeetingItem>();
  for (const e of entries) if (Meeting.is(e)) meetings.set(e.id, e);
  const seatsOf = entries.filter(MeetingSeat.is).filter((s) => !meetings.has(s.meetingId));
  for (const m of await Meeting.getMany(seatsOf.map((s) => ({ id: s.meetingId })))) if (m) meetings.set(m.id, m);

  const search = filters.search?.toLowerCase();
  return [...meetings.values()]
    .filter((m) => canSee(m, viewer))
    .filter((m) => !owner || m.organizerId === owner || m.participantIds.includes(owner))
    .filter((m) => (!from || m.endUtc >= from) && (!to || m.startUtc <= to))
    .filter((m) => !filters.type || m.type === filters.type)
    .filter((m) => !filters.status || statusOf(m, now) === filters.status)
    .filter(
      (m) => !search || m.topic.toLowerCase().includes(search) || (m.description ?? '').toLowerCase().includes(search),
    )
    .sort((a, b) => a.startUtc.localeCompare(b.startUtc) || a.id.localeCompare(b.id));
}
