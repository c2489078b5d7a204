import { createAudienceRoute } from '../../shared/api/routes/audiences.ts';
import { createAudience, toAudience } from '../../shared/audiences/audiences.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createAudienceRoute, async (req) =>
  toAudience(await createAudience(req.caller.userId, req.body)),
);
