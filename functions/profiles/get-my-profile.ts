import { toProfile } from '../../shared/api/profile.ts';
import { getMyProfileRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getMyProfileRoute, async (req) => toProfile(req.caller.user, req.caller));
