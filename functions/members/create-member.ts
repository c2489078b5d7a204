import { createMember } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { createMember as create } from '../../shared/people/members.ts';
import { toProfile } from '../../shared/people/profile.ts';

export const handler = route(createMember, async (req) =>
  toProfile(await create(req.body, {}, req.caller.userId), req.caller),
);
