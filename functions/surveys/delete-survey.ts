import { deleteSurveyRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { deleteSurvey, requireSurveyManager } from '../../shared/surveys/surveys.ts';

export const handler = route(deleteSurveyRoute, async (req) => {
  await requireSurveyManager(req.caller);
  await deleteSurvey(req.params.surveyId);
});
