import * as z from 'zod';
import { actorOf, type ChangeMapper, changed, changeType } from '../live/change-events.ts';

/**
 * Company events on the live-update stream: `event.updated` to everyone when an event
 * is created, moved or deleted (`eventId` null after a delete: clients re-read the list). Nothing
 * else of the calendar and HR areas is announced; their notifications go through the notification
 * items like every other area's.
 */
export const eventUpdated = changeType(
  'event.updated',
  'everyone',
  'A company event was created, moved or deleted.',
  z.object({ eventId: z.string().nullable().describe('Null after a delete: re-read the list.') }),
);

/** The calendar area's change types (collected by `shared/registry/change-types.ts`). */
export const calendarChangeTypes = [eventUpdated];

export const companyEventChanges: ChangeMapper = (change) => {
  const event = (eventId: string | null) => [eventUpdated.event(actorOf(change), { eventId })];
  switch (change.eventName) {
    case 'INSERT':
      return event(change.newImage?.id ?? null);
    case 'MODIFY':
      return changed(change, 'startsAt', 'endsAt') ? event(change.newImage?.id ?? null) : [];
    case 'REMOVE':
      return event(null);
  }
};
