import { createTeam } from '../../shared/api/routes/teams.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';
import { createTeam as create, toTeam } from '../../shared/people/teams.ts';

export const handler = idempotentRoute(createTeam, async (req) => toTeam(await create(req.caller.userId, req.body)));
