import { putSurveyAnswerRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { putAnswer } from '../../shared/surveys/answers.ts';

export const handler = route(putSurveyAnswerRoute, async (req) => {
  await putAnswer(req.caller.userId, req.params.surveyId, req.body.answers);
});
