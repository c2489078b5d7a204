import { deleteTeam } from '../../shared/api/routes/teams.ts';
import { route } from '../../shared/http/route.ts';
import { deleteTeam as remove } from '../../shared/people/teams.ts';

export const handler = route(deleteTeam, async (req) => remove(req.caller.userId, req.params.teamId));
