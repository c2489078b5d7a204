import { setSurveySettingsRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { setCompanyThreshold } from '../../shared/surveys/surveys.ts';

export const handler = route(setSurveySettingsRoute, (req) =>
  setCompanyThreshold(req.caller.userId, req.body.threshold),
);
