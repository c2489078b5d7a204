import { revokeSession } from '../../shared/api/routes/auth.ts';
import { endSession, listSessions } from '../../shared/auth/sessions.ts';
import { notFound } from '../../shared/http/errors.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(revokeSession, async (req) => {
  const target = (await listSessions(req.caller.userId)).find((s) => s.id === req.body.id);
  if (!target) throw notFound('No such session.');
  await endSession(target.pk.slice('SESSION#'.length));
  return { status: true as const };
});
