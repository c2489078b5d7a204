import { listReachCsvRoute } from '../../shared/api/routes/reach.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { rankingsCsv, reachRankings } from '../../shared/reach/rankings.ts';

export const handler = route(listReachCsvRoute, async (req) => {
  const { from, to, audience, groupBy, limit, cursor } = req.query;
  const found = await reachRankings({ from, to, audienceId: audience, groupBy, limit, cursor });
  return rawReply(rankingsCsv(found.items, groupBy), 'text/csv; charset=utf-8', {
    ...(found.nextCursor ? { 'x-next-cursor': found.nextCursor } : {}),
    'content-disposition': `attachment; filename="reach-${from}-${to}.csv"`,
  });
});
