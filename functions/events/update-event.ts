import { updateEventRoute } from '../../shared/api/routes/events.ts';
import { rescheduleEvent, toCompanyEvents } from '../../shared/calendar/events.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(updateEventRoute, async (req) => {
  const event = await rescheduleEvent(req.caller, req.params.eventId, req.body);
  return (await toCompanyEvents([event], req.caller))[0];
});
