import { toProfile } from '../../shared/api/profile.ts';
import { createMemberRoute } from '../../shared/api/routes/members.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';
import { createMember } from '../../shared/people/members.ts';

export const handler = idempotentRoute(createMemberRoute, async (req) =>
  toProfile(await createMember(req.body, {}, req.caller.userId), req.caller),
);
