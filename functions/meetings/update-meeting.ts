import { updateMeeting } from '../../shared/api/routes/meetings.ts';
import { updateMeeting as update } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  updateMeeting,
  async (req) => (await toMeetings([await update(req.caller, req.params.meetingId, req.body)], req.caller))[0],
);
