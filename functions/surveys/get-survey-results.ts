import { getSurveyResultsRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { surveyResults } from '../../shared/surveys/results.ts';
import { requireSurveyManager } from '../../shared/surveys/surveys.ts';

export const handler = route(getSurveyResultsRoute, async (req) => {
  await requireSurveyManager(req.caller);
  return surveyResults(req.params.surveyId, req.query);
});
