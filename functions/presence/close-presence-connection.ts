import { closeConnection } from '../../shared/api/routes/presence.ts';
import { route } from '../../shared/http/route.ts';
import { closeConnection as close } from '../../shared/presence/heartbeats.ts';

export const handler = route(closeConnection, async (req) => {
  await close(req.caller.userId, req.params.connectionId);
});
