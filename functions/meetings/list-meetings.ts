import { listMeetings } from '../../shared/api/routes/meetings.ts';
import { listMeetings as list } from '../../shared/calendar/meetings/list.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listMeetings, async (req) => toMeetings(await list(req.caller, req.query), req.caller));
