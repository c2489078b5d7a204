import { createEventRoute } from '../../shared/api/routes/events.ts';
import { createEvent, toCompanyEvents } from '../../shared/calendar/events.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createEventRoute, async (req) => {
  const event = await createEvent(req.caller.userId, req.body);
  return (await toCompanyEvents([event], req.caller))[0];
});
