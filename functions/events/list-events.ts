import { listEvents } from '../../shared/api/routes/events.ts';
import { toCompanyEvents, listEvents as upcoming } from '../../shared/calendar/events.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listEvents, async (req) => toCompanyEvents(await upcoming(req.query.limit), req.caller));
