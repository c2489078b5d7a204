import { sendHeartbeat } from '../../shared/api/routes/presence.ts';
import { route } from '../../shared/http/route.ts';
import { recordHeartbeat } from '../../shared/presence/heartbeats.ts';

export const handler = route(sendHeartbeat, async (req) => {
  await recordHeartbeat(req.caller.userId, req.caller.sessionId, req.body.connectionId, req.body.active);
});
