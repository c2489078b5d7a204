import { actorOf, type ChangeMapper, changed, changeType, eventReaders, onlyUser } from '../live/change-events.ts';
import * as z from '../util/zod.ts';

/**
 * Company events on the live-update stream: `event.updated` to everyone when an event
 * is created, moved or deleted (`eventId` null after a delete: clients re-read the list). Nothing
 * else of the calendar and HR areas is announced; their notifications go through the notification
 * items like every other area's.
 */
export const eventUpdated = changeType(
  'event.updated',
  'readers',
  'A company event was created, moved or deleted.',
  z.object({ eventId: z.described(z.nullable(z.string()), 'Null after a delete: re-read the list.') }),
);

/** The calendar area's change types (collected by `shared/registry/change-types.ts`). */
export const calendarChangeTypes = [eventUpdated];

export const companyEventChanges: ChangeMapper = (change) => {
  const e = change.newImage ?? change.oldImage;
  // A targeted event (docs/audiences.md): to those who may see it; its readers learn of it when recorded.
  const to = e?.audience ? eventReaders(e.id) : undefined;
  const event = (eventId: string | null) => [eventUpdated.event(actorOf(change), { eventId }, to)];
  switch (change.eventName) {
    case 'INSERT':
      return event(change.newImage?.id ?? null);
    case 'MODIFY':
      return changed(change, 'startsAt', 'endsAt') ? event(change.newImage?.id ?? null) : [];
    case 'REMOVE':
      return event(null);
  }
};

/** A targeted event's readers recorded (its audience's pass done): `event.updated` to them. */
export const eventAudienceChanges: ChangeMapper = (change) => {
  const a = change.newImage;
  if (change.eventName !== 'MODIFY' || !a?.doneAt || change.oldImage?.doneAt) return [];
  return [eventUpdated.event(a.authorId, { eventId: a.eventId }, eventReaders(a.eventId))];
};

/** A later joiner of a dynamic event audience: `event.updated` to them alone. */
export const eventReaderChanges: ChangeMapper = (change) => {
  const r = change.newImage;
  if (change.eventName !== 'INSERT' || r?.how !== 'joined') return [];
  return [eventUpdated.event(null, { eventId: r.eventId }, onlyUser(r.userId))];
};
