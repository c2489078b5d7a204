import { listMeetingsRoute } from '../../shared/api/routes/meetings.ts';
import { listMeetings } from '../../shared/calendar/meetings/list.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listMeetingsRoute, async (req) =>
  toMeetings(await listMeetings(req.caller, req.query), req.caller),
);
