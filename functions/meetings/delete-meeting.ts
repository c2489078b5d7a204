import { deleteMeeting } from '../../shared/api/routes/meetings.ts';
import { deleteMeeting as remove } from '../../shared/calendar/meetings/meetings.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteMeeting, async (req) => {
  await remove(req.caller, req.params.meetingId);
});
