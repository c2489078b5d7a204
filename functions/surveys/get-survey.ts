import { getSurveyRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { getSurvey, requireSurveyManager, toSurvey } from '../../shared/surveys/surveys.ts';

export const handler = route(getSurveyRoute, async (req) => {
  await requireSurveyManager(req.caller);
  return toSurvey(await getSurvey(req.params.surveyId));
});
