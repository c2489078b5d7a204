import { listSessionsRouteRoute } from '../../shared/api/routes/auth.ts';
import { listSessions, toSessionView } from '../../shared/auth/sessions.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listSessionsRouteRoute, async (req) =>
  (await listSessions(req.caller.userId)).map((s) => toSessionView(s, req.caller.sessionId)),
);
