import { adminSetPassword } from '../../shared/access/accounts.ts';
import { setMemberPasswordRoute } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { toAdminMember } from '../../shared/people/members.ts';
import { getUser } from '../../shared/people/users.ts';

export const handler = route(setMemberPasswordRoute, async (req) => {
  const user = await adminSetPassword(req.caller.userId, req.params.userId, req.body.password);
  return toAdminMember(user, user.managerId ? await getUser(user.managerId) : undefined);
});
