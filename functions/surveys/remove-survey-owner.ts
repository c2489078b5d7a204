import { removeSurveyOwnerRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { removeOwner } from '../../shared/surveys/surveys.ts';

export const handler = route(removeSurveyOwnerRoute, async (req) => {
  await removeOwner(req.params.userId);
});
