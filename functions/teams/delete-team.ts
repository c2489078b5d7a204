import { deleteTeamRoute } from '../../shared/api/routes/teams.ts';
import { route } from '../../shared/http/route.ts';
import { deleteTeam } from '../../shared/people/teams.ts';

export const handler = route(deleteTeamRoute, async (req) => deleteTeam(req.caller.userId, req.params.teamId));
