import { raiseGrievanceRoute } from '../../shared/api/routes/grievances.ts';
import { raiseGrievance } from '../../shared/grievances/grievances.ts';
import { anonymousIdempotentRoute } from '../../shared/http/anonymous-idempotent-route.ts';

// `anonymous` is accepted and ignored: every grievance is anonymous.
export const handler = anonymousIdempotentRoute(raiseGrievanceRoute, async (req) => {
  const { subject, description, category } = req.body;
  return raiseGrievance(req.caller.userId, { subject, description, category });
});
