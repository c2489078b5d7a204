import { createEventRoute } from '../../shared/api/routes/events.ts';
import { createEvent, toCompanyEvents } from '../../shared/calendar/events.ts';
import { resolveAudience } from '../../shared/feed/audience-check.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createEventRoute, async (req) => {
  const { audience, ...input } = req.body;
  // A targeted event (docs/audiences.md): the audience checked as a post's is, frozen in the background.
  const resolved = audience ? await resolveAudience(req.caller, audience) : undefined;
  const event = await createEvent(req.caller.userId, input, new Date(), resolved);
  return (await toCompanyEvents([event], req.caller))[0];
});
