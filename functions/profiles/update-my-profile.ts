import { toProfile } from '../../shared/api/profile.ts';
import { updateMyProfileRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';
import { updateProfile } from '../../shared/people/profile-update.ts';

export const handler = route(updateMyProfileRoute, async (req) =>
  toProfile(
    await updateProfile(req.caller.userId, req.body, { actorId: req.caller.userId, allowJoinedOn: false }),
    req.caller,
  ),
);
