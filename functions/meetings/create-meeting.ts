import { createMeeting } from '../../shared/api/routes/meetings.ts';
import { createMeeting as create } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(
  createMeeting,
  async (req) => (await toMeetings([await create(req.caller.user, req.body)], req.caller))[0],
);
