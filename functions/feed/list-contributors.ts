import { listContributorsRoute } from '../../shared/api/routes/feed.ts';
import { contributors } from '../../shared/feed/leaderboard.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listContributorsRoute, async (req) => contributors(req.query.limit));
