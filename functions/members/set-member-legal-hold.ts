import { setLegalHoldRoute } from '../../shared/api/routes/data-rights.ts';
import { setLegalHold } from '../../shared/data-rights/legal-hold.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(setLegalHoldRoute, async (req) =>
  setLegalHold(req.params.userId, req.body.legalHold, req.caller.userId),
);
