import { setMemberFeaturedRoute } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { setFeatured } from '../../shared/people/members.ts';
import { toProfile } from '../../shared/people/profile.ts';

export const handler = route(setMemberFeaturedRoute, async (req) =>
  toProfile(await setFeatured(req.caller.userId, req.params.userId, req.body.featured, req.body.note), req.caller),
);
