import { getGrievanceUnreadCountRoute } from '../../shared/api/routes/grievances.ts';
import { unreadCount } from '../../shared/grievances/read-state.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getGrievanceUnreadCountRoute, async (req) => ({
  count: await unreadCount(req.caller.userId),
}));
