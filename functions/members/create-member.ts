import { createMember } from '../../shared/api/routes/members.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';
import { createMember as create } from '../../shared/people/members.ts';
import { toProfile } from '../../shared/people/profile.ts';

export const handler = idempotentRoute(createMember, async (req) =>
  toProfile(await create(req.body, {}, req.caller.userId), req.caller),
);
