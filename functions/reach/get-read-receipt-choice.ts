import { getReadReceiptChoiceRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { readReceiptChoice } from '../../shared/reach/settings.ts';

export const handler = route(getReadReceiptChoiceRoute, async (req) => readReceiptChoice(req.caller.userId));
