import { updateMeetingRoute } from '../../shared/api/routes/meetings.ts';
import { updateMeeting } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  updateMeetingRoute,
  async (req) => (await toMeetings([await updateMeeting(req.caller, req.params.meetingId, req.body)], req.caller))[0],
);
