import { updateSurveyRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { requireSurveyManager, toSurvey, updateSurvey } from '../../shared/surveys/surveys.ts';

export const handler = route(updateSurveyRoute, async (req) => {
  await requireSurveyManager(req.caller);
  return toSurvey(await updateSurvey(req.caller.userId, req.params.surveyId, req.body));
});
