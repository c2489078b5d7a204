import { PRESENT } from '../db/entity.ts';
import { newSortableId } from '../db/ids.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { forbidden, invalid, notFound } from '../errors.ts';
import { mentionIn } from '../people/person-views.ts';
import { getUsers } from '../people/users.ts';
import { type Instant, instant } from '../util/time.ts';
import { CompanyEvent, type CompanyEventItem, LONG_EVENT_MS } from './entities.ts';
import { isSuperAdmin, type Viewer } from './people.ts';

/**
 * Company events. An event is past once its effective end (`endsAt`,
 * else `startsAt`) has passed; the list is soonest first without past events.
 *
 * The list is two Queries, never a scan: gsi4 by start from one day back (every event that has not
 * started, and the short ones under way; the filter drops only events of the last day that are over),
 * and gsi5, which holds only events longer than a day, by effective end (the long ones still under way).
 */
export interface EventTime {
  startsAt: string;
  endsAt?: string | null;
}

/** Validates a time (no start in the past, an end after the start) and derives its UTC forms. */
function eventTimes(time: { start: Instant; end: Instant | null }, now: Date) {
  const { start, end } = time;
  if (start.ms < now.getTime()) throw invalid(['startsAt: must not be in the past']);
  if (end && end.ms <= start.ms) throw invalid(['endsAt: must be after startsAt']);
  return { startsAt: start.iso, endsAt: end?.iso ?? null, startUtc: start.utc, endUtc: (end ?? start).utc };
}

export async function createEvent(
  actorId: string,
  input: { title: string; startsAt: string; endsAt?: string | null; location?: string },
  now = new Date(),
): Promise<CompanyEventItem> {
  const id = newSortableId(now);
  const times = eventTimes({ start: instant(input.startsAt), end: input.endsAt ? instant(input.endsAt) : null }, now);
  const item = CompanyEvent.item({
    id,
    title: input.title.trim(),
    location: (input.location ?? '').trim(),
    createdById: actorId,
    createdAt: now.toISOString(),
    actorId,
    ...times,
  });
  await write(CompanyEvent.create(item));
  return item;
}

/** Upcoming and ongoing events, soonest start first. */
export async function listEvents(limit: number, now = new Date()): Promise<CompanyEventItem[]> {
  const nowUtc = now.toISOString();
  const lookBack = new Date(now.getTime() - LONG_EVENT_MS).toISOString();
  const notOver = { FilterExpression: 'endUtc > :now', ExpressionAttributeValues: { ':now': nowUtc } };
  const [recent, long] = await Promise.all([
    CompanyEvent.queryAll({ index: 'byStart', key: {}, skAfter: lookBack, filter: notOver }, { max: limit }),
    CompanyEvent.queryAll({
      index: 'longByEnd',
      key: {},
      skAfter: nowUtc,
      // Long events that started within the last day are already in the first query.
      filter: { FilterExpression: 'startUtc <= :cut', ExpressionAttributeValues: { ':cut': lookBack } },
    }),
  ]);
  const byStart = (a: CompanyEventItem, b: CompanyEventItem) =>
    a.startUtc.localeCompare(b.startUtc) || a.id.localeCompare(b.id);
  return [...long.sort(byStart), ...recent].slice(0, limit);
}

export const canManageEvent = (event: CompanyEventItem, viewer: Viewer) =>
  event.createdById === viewer.userId || isSuperAdmin(viewer);

/** The event for someone about to change it: 404 when it does not exist, 403 without canManage. */
async function manageableEvent(eventId: string, viewer: Viewer): Promise<CompanyEventItem> {
  const event = await CompanyEvent.get({ id: eventId }, { consistent: true });
  if (!event) throw notFound('No such event.');
  if (!canManageEvent(event, viewer))
    throw forbidden('Only the person who created this event or a super admin can change it.');
  return event;
}

/**
 * Moves an event (time only). `endsAt` omitted keeps the current end, null clears it; the result must
 * still end after it starts.
 */
export async function rescheduleEvent(
  viewer: Viewer,
  eventId: string,
  time: EventTime,
  now = new Date(),
): Promise<CompanyEventItem> {
  const event = await manageableEvent(eventId, viewer);
  const endsAt = time.endsAt === undefined ? event.endsAt : time.endsAt;
  const times = eventTimes({ start: instant(time.startsAt), end: endsAt ? instant(endsAt) : null }, now);
  // The moved event's index attributes move with it (it leaves gsi5 when it no longer lasts a day).
  const after = { ...event, ...times, actorId: viewer.userId };
  try {
    await write(CompanyEvent.change(event, after, PRESENT), { returnValues: 'NONE' });
    return CompanyEvent.item(after);
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('No such event.');
    throw err;
  }
}

export async function deleteEvent(viewer: Viewer, eventId: string): Promise<void> {
  await manageableEvent(eventId, viewer);
  try {
    await transact([CompanyEvent.remove({ id: eventId }, PRESENT)]);
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('No such event.');
    throw err;
  }
}

/** CompanyEvent answers, creators read fresh. */
export async function toCompanyEvents(events: CompanyEventItem[], viewer: Viewer) {
  const creators = await getUsers(events.map((e) => e.createdById));
  return events.map((e) => ({
    id: e.id,
    title: e.title,
    startsAt: e.startsAt,
    endsAt: e.endsAt ?? null,
    location: e.location ?? '',
    createdBy: mentionIn(creators, e.createdById),
    canManage: canManageEvent(e, viewer),
  }));
}
