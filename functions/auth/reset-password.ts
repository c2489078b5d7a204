import { resetPassword } from '../../shared/api/routes/auth.ts';
import { resetPassword as reset } from '../../shared/auth/accounts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(resetPassword, async (req) => {
  await reset(req.body.token, req.body.newPassword);
  return { status: true as const };
});
