import { updateUserRoute } from '../../shared/api/routes/auth.ts';
import { route } from '../../shared/http/route.ts';
import { updateNameAndImage } from '../../shared/people/account-profile.ts';

export const handler = route(updateUserRoute, async (req) => {
  await updateNameAndImage(req.caller.userId, req.body);
  return { status: true as const };
});
