import { deleteEvent } from '../../shared/api/routes/events.ts';
import { deleteEvent as remove } from '../../shared/calendar/events.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteEvent, async (req) => {
  await remove(req.caller, req.params.eventId);
});
