import { closeSurveyRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { closeSurvey, requireSurveyManager, toSurvey } from '../../shared/surveys/surveys.ts';

export const handler = route(closeSurveyRoute, async (req) => {
  await requireSurveyManager(req.caller);
  return toSurvey(await closeSurvey(req.caller.userId, req.params.surveyId));
});
