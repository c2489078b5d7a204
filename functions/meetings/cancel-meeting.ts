import { cancelMeetingRoute } from '../../shared/api/routes/meetings.ts';
import { cancelMeeting } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  cancelMeetingRoute,
  async (req) => (await toMeetings([await cancelMeeting(req.caller, req.params.meetingId)], req.caller))[0],
);
