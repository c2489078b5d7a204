import { listMustReadRoute } from '../../shared/api/routes/feed.ts';
import { listOwed } from '../../shared/feed/must-read.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listMustReadRoute, async (req) => listOwed(req.caller, req.query.limit, req.query.cursor));
