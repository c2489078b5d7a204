import { setReadReceiptChoiceRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { setReadReceiptChoice } from '../../shared/reach/settings.ts';

export const handler = route(setReadReceiptChoiceRoute, async (req) =>
  setReadReceiptChoice(req.caller.userId, req.body.optedOut),
);
