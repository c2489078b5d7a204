import { createTeamRoute } from '../../shared/api/routes/teams.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';
import { createTeam, toTeam } from '../../shared/people/teams.ts';

export const handler = idempotentRoute(createTeamRoute, async (req) =>
  toTeam(await createTeam(req.caller.userId, req.body)),
);
