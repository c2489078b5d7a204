import { listTeamsRoute } from '../../shared/api/routes/teams.ts';
import { route } from '../../shared/http/route.ts';
import { listTeams, toTeam } from '../../shared/people/teams.ts';

export const handler = route(listTeamsRoute, async () => (await listTeams()).map(toTeam));
