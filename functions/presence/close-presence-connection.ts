import { closeConnectionRoute } from '../../shared/api/routes/presence.ts';
import { route } from '../../shared/http/route.ts';
import { closeConnection } from '../../shared/presence/heartbeats.ts';

export const handler = route(closeConnectionRoute, async (req) => {
  await closeConnection(req.caller.userId, req.params.connectionId);
});
