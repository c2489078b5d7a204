import { createTeam } from '../../shared/api/routes/teams.ts';
import { route } from '../../shared/http/route.ts';
import { createTeam as create, toTeam } from '../../shared/people/teams.ts';

export const handler = route(createTeam, async (req) => toTeam(await create(req.caller.userId, req.body)));
