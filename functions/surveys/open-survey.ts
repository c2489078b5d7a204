import { openSurveyRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { openSurvey, requireSurveyManager, toSurvey } from '../../shared/surveys/surveys.ts';

export const handler = route(openSurveyRoute, async (req) => {
  await requireSurveyManager(req.caller);
  return toSurvey(await openSurvey(req.caller.userId, req.params.surveyId));
});
