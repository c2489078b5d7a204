import { actorOf, type ChangeMapper, changed, everyone } from '../live/change-events.ts';

/**
 * Company events on the live-update stream: `event.updated` to everyone when an event
 * is created, moved or deleted (`eventId` null after a delete: clients re-read the list). Nothing
 * else of the calendar and HR areas is announced; their notifications go through the notification
 * items like every other area's.
 */
export const companyEventChanges: ChangeMapper = (change) => {
  const event = (eventId: string | null) => [
    { type: 'event.updated', actorId: actorOf(change), payload: { eventId }, audience: everyone },
  ];
  switch (change.eventName) {
    case 'INSERT':
      return event(change.newImage?.id ?? null);
    case 'MODIFY':
      return changed(change, 'startsAt', 'endsAt') ? event(change.newImage?.id ?? null) : [];
    case 'REMOVE':
      return event(null);
  }
};
