import { recordSeenRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { recordSeen } from '../../shared/reach/seen.ts';

export const handler = route(recordSeenRoute, async (req) => {
  await recordSeen(req.caller, req.body.postIds);
  return undefined;
});
