import { updateMeetingRecordingRoute } from '../../shared/api/routes/meetings.ts';
import { setRecordingLinks } from '../../shared/calendar/meetings/meetings.ts';
import { toMeetings } from '../../shared/calendar/meetings/model.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  updateMeetingRecordingRoute,
  async (req) =>
    (await toMeetings([await setRecordingLinks(req.caller, req.params.meetingId, req.body)], req.caller))[0],
);
