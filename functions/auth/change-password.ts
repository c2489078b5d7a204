import { changePassword } from '../../shared/api/routes/auth.ts';
import { changePassword as change, toSessionUser } from '../../shared/auth/accounts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(changePassword, async (req) => {
  const user = await change(req.caller.userId, req.body.currentPassword, req.body.newPassword, {
    revokeOthers: req.body.revokeOtherSessions === true,
    keepTokenHash: req.caller.tokenHash,
  });
  return { user: toSessionUser(user) };
});
