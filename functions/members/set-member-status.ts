import { toProfile } from '../../shared/api/profile.ts';
import { setMemberStatusRoute } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { setStatus } from '../../shared/people/members.ts';

export const handler = route(setMemberStatusRoute, async (req) =>
  toProfile(await setStatus(req.caller.userId, req.params.userId, req.body.status), req.caller),
);
