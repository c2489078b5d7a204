import { listSurveysRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { listSurveys, requireSurveyManager } from '../../shared/surveys/surveys.ts';

export const handler = route(listSurveysRoute, async (req) => {
  await requireSurveyManager(req.caller);
  return listSurveys(req.query);
});
