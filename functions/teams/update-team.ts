import { updateTeam } from '../../shared/api/routes/teams.ts';
import { route } from '../../shared/http/route.ts';
import { toTeam, updateTeam as update } from '../../shared/people/teams.ts';

export const handler = route(updateTeam, async (req) =>
  toTeam(await update(req.caller.userId, req.params.teamId, req.body)),
);
