import { toProfile } from '../../shared/api/profile.ts';
import { updatePersonProfileRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';
import { updateProfile } from '../../shared/people/profile-update.ts';

export const handler = route(updatePersonProfileRoute, async (req) =>
  toProfile(
    await updateProfile(req.params.userId, req.body, { actorId: req.caller.userId, allowJoinedOn: true }),
    req.caller,
  ),
);
