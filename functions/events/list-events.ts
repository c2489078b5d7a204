import { listEventsRoute } from '../../shared/api/routes/events.ts';
import { listEvents, toCompanyEvents } from '../../shared/calendar/events.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listEventsRoute, async (req) =>
  toCompanyEvents(await listEvents(req.query.limit, new Date(), req.caller.userId), req.caller),
);
