import { listSurveyOwnersRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { listOwners } from '../../shared/surveys/surveys.ts';

export const handler = route(listSurveyOwnersRoute, (req) => listOwners(req.query));
