import { toProfile } from '../../shared/api/profile.ts';
import { getPersonRoute } from '../../shared/api/routes/profiles.ts';
import { notFound } from '../../shared/errors.ts';
import { route } from '../../shared/http/route.ts';
import { getUser } from '../../shared/people/users.ts';

export const handler = route(getPersonRoute, async (req) => {
  const user = await getUser(req.params.userId);
  if (!user) throw notFound('No such person.');
  return toProfile(user, req.caller);
});
