import { createMeetingRoute } from '../../shared/api/routes/meetings.ts';
import { createMeeting } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(
  createMeetingRoute,
  async (req) => (await toMeetings([await createMeeting(req.caller.user, req.body)], req.caller))[0],
);
