import { cancelMeeting } from '../../shared/api/routes/meetings.ts';
import { cancelMeeting as cancel } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  cancelMeeting,
  async (req) => (await toMeetings([await cancel(req.caller, req.params.meetingId)], req.caller))[0],
);
