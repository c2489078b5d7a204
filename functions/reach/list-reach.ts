import { listReachRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { reachRankings } from '../../shared/reach/rankings.ts';

export const handler = route(listReachRoute, async (req) => {
  const { from, to, audience, groupBy, limit, cursor } = req.query;
  return reachRankings({ from, to, audienceId: audience, groupBy, limit, cursor });
});
