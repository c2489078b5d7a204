import { getLeaderboardRoute } from '../../shared/api/routes/feed.ts';
import { leaderboard } from '../../shared/feed/leaderboard.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getLeaderboardRoute, async (req) => leaderboard(req.query.period, req.query.limit));
