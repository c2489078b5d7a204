import { PRESENT } from '../db/entity.ts';
import { newSortableId } from '../db/ids.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { forbidden, invalid, notFound } from '../errors.ts';
import { mentionIn } from '../people/person-views.ts';
import { getUsers } from '../people/users.ts';
import { type Instant, instant } from '../util/time.ts';
import {
  CompanyEvent,
  type CompanyEventItem,
  EventAudience,
  EventReader,
  type EventReaderItem,
  LONG_EVENT_MS,
} from './entities.ts';
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

/** A targeted event's audience, checked by the caller (shared/feed/audience.ts resolveAudience). */
export interface EventAudienceInput {
  rule: unknown;
  audienceId: string | null;
  dynamic: boolean;
}

/** How long a dynamic event audience keeps taking people who join it. */
const FOLLOW_MS = 90 * 86_400_000;

export async function createEvent(
  actorId: string,
  input: { title: string; startsAt: string; endsAt?: string | null; location?: string },
  now = new Date(),
  audience?: EventAudienceInput,
): Promise<CompanyEventItem> {
  const id = newSortableId(now);
  const times = eventTimes({ start: instant(input.startsAt), end: input.endsAt ? instant(input.endsAt) : null }, now);
  const at = now.toISOString();
  const item = CompanyEvent.item({
    id,
    title: input.title.trim(),
    location: (input.location ?? '').trim(),
    createdById: actorId,
    createdAt: at,
    actorId,
    ...times,
    ...(audience
      ? {
          audience: {
            ...(audience.audienceId !== null ? { id: audience.audienceId } : { rule: audience.rule }),
            ...(audience.dynamic ? { dynamic: true } : {}),
          },
        }
      : {}),
  });
  if (!audience) {
    await write(CompanyEvent.create(item));
    return item;
  }
  // Its audience is frozen in the background (shared/feed/event-audience.ts); its creator sees it at once.
  await transact([
    CompanyEvent.create(item),
    EventAudience.create({
      eventId: id,
      authorId: actorId,
      rule: audience.rule,
      audienceId: audience.audienceId,
      dynamic: audience.dynamic,
      cutoff: at,
      cursor: null,
      step: 0,
      sent: 0,
      createdAt: at,
      ...(audience.dynamic ? { followUntil: new Date(now.getTime() + FOLLOW_MS).toISOString() } : {}),
    }),
    EventReader.put(readerOf(item, actorId, 'author', at)),
  ]);
  return item;
}

/** A person's reader item of a targeted event, with copies of its times (their own indexes). */
export const readerOf = (
  e: Pick<CompanyEventItem, 'id' | 'startUtc' | 'endUtc' | 'endsAt'>,
  userId: string,
  how: EventReaderItem['how'],
  addedAt: string,
) => ({ eventId: e.id, userId, how, addedAt, startUtc: e.startUtc, endUtc: e.endUtc, endsAt: e.endsAt });

/** Whether a person may see an event: every untargeted one; a targeted one, its creator, super admins and its readers. */
export async function maySeeEvent(event: CompanyEventItem | string, viewer: Viewer): Promise<boolean> {
  const e = typeof event === 'string' ? await CompanyEvent.get({ id: event }) : event;
  if (!e) return false;
  if (!e.audience || canManageEvent(e, viewer)) return true;
  return !!(await EventReader.get({ eventId: e.id, userId: viewer.userId }));
}

/**
 * Upcoming and ongoing events, soonest start first: the company's, and (with a reader) the targeted
 * events they are in (docs/audiences.md), from their own indexes by the same two queries, merged.
 */
export async function listEvents(limit: number, now = new Date(), readerId?: string): Promise<CompanyEventItem[]> {
  const nowUtc = now.toISOString();
  const lookBack = new Date(now.getTime() - LONG_EVENT_MS).toISOString();
  const notOver = { FilterExpression: 'endUtc > :now', ExpressionAttributeValues: { ':now': nowUtc } };
  // Long events that started within the last day are already in the first query.
  const startedBefore = { FilterExpression: 'startUtc <= :cut', ExpressionAttributeValues: { ':cut': lookBack } };
  const [recent, long, mine, mineLong] = await Promise.all([
    CompanyEvent.queryAll({ index: 'byStart', key: {}, skAfter: lookBack, filter: notOver }, { max: limit }),
    CompanyEvent.queryAll({ index: 'longByEnd', key: {}, skAfter: nowUtc, filter: startedBefore }),
    readerId
      ? EventReader.queryAll(
          { index: 'byStart', key: { userId: readerId }, skAfter: lookBack, filter: notOver },
          { max: limit },
        )
      : [],
    readerId
      ? EventReader.queryAll({ index: 'longByEnd', key: { userId: readerId }, skAfter: nowUtc, filter: startedBefore })
      : [],
  ]);
  const targeted = [...mine, ...mineLong].map((r) => ({ id: r.eventId }));
  const found = targeted.length ? await CompanyEvent.getMany(targeted) : [];
  const theirs = found.filter((e): e is CompanyEventItem => !!e && e.endUtc > nowUtc);
  const byStart = (a: CompanyEventItem, b: CompanyEventItem) =>
    a.startUtc.localeCompare(b.startUtc) || a.id.localeCompare(b.id);
  const isLongNow = (e: CompanyEventItem) => e.startUtc <= lookBack;
  const longOnes = [...long, ...theirs.filter(isLongNow)].sort(byStart);
  const recentOnes = [...recent, ...theirs.filter((e) => !isLongNow(e))].sort(byStart);
  return [...longOnes, ...recentOnes].slice(0, limit);
}

export const canManageEvent = (event: CompanyEventItem, viewer: Viewer) =>
  event.createdById === viewer.userId || isSuperAdmin(viewer);

/**
 * The event for someone about to change it: 404 when it does not exist (or is targeted at an audience
 * they are not in, docs/audiences.md), 403 without canManage.
 */
async function manageableEvent(eventId: string, viewer: Viewer): Promise<CompanyEventItem> {
  const event = await CompanyEvent.get({ id: eventId }, { consistent: true });
  if (!event || !(await maySeeEvent(event, viewer))) throw notFound('No such event.');
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
    // A targeted event's audience as given, shown to whom may manage it (docs/audiences.md).
    ...(e.audience && canManageEvent(e, viewer) ? { audience: e.audience } : {}),
  }));
}
