import { listMeetingsRoute } from '../../shared/api/routes/meetings.ts';
import { listMeetings } from '../../shared/calendar/meetings/list.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { pagedArray } from '../../shared/http/next-link.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listMeetingsRoute, async (req) => {
  const page = await listMeetings(req.caller, req.query);
  return pagedArray(req.event, listMeetingsRoute.status, await toMeetings(page.meetings, req.caller), page.nextCursor);
});
