import { sendHeartbeatRoute } from '../../shared/api/routes/presence.ts';
import { route } from '../../shared/http/route.ts';
import { recordHeartbeat } from '../../shared/presence/heartbeats.ts';

export const handler = route(sendHeartbeatRoute, async (req) => {
  await recordHeartbeat(req.caller.userId, req.caller.sessionId, req.body.connectionId, req.body.active);
});
