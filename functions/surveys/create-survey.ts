import { createSurveyRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { createSurvey, requireSurveyManager, toSurvey } from '../../shared/surveys/surveys.ts';

export const handler = route(createSurveyRoute, async (req) => {
  await requireSurveyManager(req.caller);
  return toSurvey(await createSurvey(req.caller.userId, req.body));
});
