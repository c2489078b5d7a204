import { getMeetingRoute } from '../../shared/api/routes/meetings.ts';
import { visibleMeeting } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  getMeetingRoute,
  async (req) => (await toMeetings([await visibleMeeting(req.caller, req.params.meetingId)], req.caller))[0],
);
