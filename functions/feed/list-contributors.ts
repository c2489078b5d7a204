import { listContributors } from '../../shared/api/routes/feed.ts';
import { contributors } from '../../shared/feed/leaderboard.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listContributors, async (req) => contributors(req.query.limit));
