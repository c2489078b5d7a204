import { toDirectoryEntries } from '../../shared/api/profile.ts';
import { listAudiencePeopleRoute } from '../../shared/api/routes/audiences.ts';
import { audiencePeople } from '../../shared/audiences/audiences.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listAudiencePeopleRoute, async (req) => {
  const page = await audiencePeople(req.params.audienceId, req.query);
  return { count: page.count, items: await toDirectoryEntries(page.users), nextCursor: page.nextCursor };
});
