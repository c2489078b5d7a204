import { getSurveyAnswerRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { getOwnAnswer } from '../../shared/surveys/answers.ts';

export const handler = route(getSurveyAnswerRoute, (req) => getOwnAnswer(req.caller.userId, req.params.surveyId));
