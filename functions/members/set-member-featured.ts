import { toProfile } from '../../shared/api/profile.ts';
import { setMemberFeaturedRoute } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { setFeatured } from '../../shared/people/members.ts';

export const handler = route(setMemberFeaturedRoute, async (req) =>
  toProfile(await setFeatured(req.caller.userId, req.params.userId, req.body.featured, req.body.note), req.caller),
);
