import { listOpenSurveysRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { listOpenSurveys } from '../../shared/surveys/answers.ts';

export const handler = route(listOpenSurveysRoute, (req) => listOpenSurveys(req.caller.userId, req.query));
