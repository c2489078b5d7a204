import { getOrgChartRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';
import { orgChart } from '../../shared/people/directory.ts';

export const handler = route(getOrgChartRoute, async () => orgChart());
