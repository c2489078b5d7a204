import { deleteMeetingRoute } from '../../shared/api/routes/meetings.ts';
import { deleteMeeting } from '../../shared/calendar/meetings/meetings.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteMeetingRoute, async (req) => {
  await deleteMeeting(req.caller, req.params.meetingId);
});
