import { listTeams } from '../../shared/api/routes/teams.ts';
import { route } from '../../shared/http/route.ts';
import { listTeams as list, toTeam } from '../../shared/people/teams.ts';

export const handler = route(listTeams, async () => (await list()).map(toTeam));
