import { deleteEventRoute } from '../../shared/api/routes/events.ts';
import { deleteEvent } from '../../shared/calendar/events.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteEventRoute, async (req) => {
  await deleteEvent(req.caller, req.params.eventId);
});
