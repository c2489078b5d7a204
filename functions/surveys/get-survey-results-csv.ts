import { getSurveyResultsCsvRoute } from '../../shared/api/routes/surveys.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { surveyResultsCsv } from '../../shared/surveys/results.ts';
import { requireSurveyManager } from '../../shared/surveys/surveys.ts';

export const handler = route(getSurveyResultsCsvRoute, async (req) => {
  await requireSurveyManager(req.caller);
  const csv = await surveyResultsCsv(req.params.surveyId, req.query);
  return rawReply(csv, 'text/csv; charset=utf-8', {
    'content-disposition': `attachment; filename="survey-${req.params.surveyId}.csv"`,
  });
});
