import { healthRoute } from '../../shared/api/routes/system.ts';
import { env } from '../../shared/config/env.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(healthRoute, async () => ({
  status: 'ok',
  version: env.serviceVersion,
  time: new Date().toISOString(),
}));
