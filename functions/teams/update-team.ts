import { updateTeamRoute } from '../../shared/api/routes/teams.ts';
import { route } from '../../shared/http/route.ts';
import { toTeam, updateTeam } from '../../shared/people/teams.ts';

export const handler = route(updateTeamRoute, async (req) =>
  toTeam(await updateTeam(req.caller.userId, req.params.teamId, req.body)),
);
