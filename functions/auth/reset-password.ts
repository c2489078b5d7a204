import { resetPassword } from '../../shared/access/accounts.ts';
import { resetPasswordRoute } from '../../shared/api/routes/auth.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(resetPasswordRoute, async (req) => {
  await resetPassword(req.body.token, req.body.newPassword);
  return { status: true as const };
});
