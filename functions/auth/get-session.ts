import { toSessionUser } from '../../shared/access/accounts.ts';
import { getSessionRoute } from '../../shared/api/routes/auth.ts';
import { toSessionView } from '../../shared/auth/sessions.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getSessionRoute, async (req) => ({
  session: toSessionView(req.caller.session, req.caller.sessionId),
  user: toSessionUser(req.caller.user),
}));
