import { toProfile } from '../../shared/api/profile.ts';
import { setMemberRoleRoute } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { setRole } from '../../shared/people/members.ts';

export const handler = route(setMemberRoleRoute, async (req) =>
  toProfile(await setRole(req.caller.userId, req.params.userId, req.body.role), req.caller),
);
