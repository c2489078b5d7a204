import { createEvent } from '../../shared/api/routes/events.ts';
import { createEvent as create, toCompanyEvents } from '../../shared/calendar/events.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createEvent, async (req) => {
  const event = await create(req.caller.userId, req.body);
  return (await toCompanyEvents([event], req.caller))[0];
});
