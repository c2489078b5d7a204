import { getSurveySettingsRoute } from '../../shared/api/routes/surveys.ts';
import { route } from '../../shared/http/route.ts';
import { companyThreshold } from '../../shared/surveys/surveys.ts';

export const handler = route(getSurveySettingsRoute, async () => ({ threshold: await companyThreshold() }));
