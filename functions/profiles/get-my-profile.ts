import { getMyProfileRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';
import { toProfile } from '../../shared/people/profile.ts';

export const handler = route(getMyProfileRoute, async (req) => toProfile(req.caller.user, req.caller));
