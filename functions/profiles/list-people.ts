import { toDirectoryEntries } from '../../shared/api/profile.ts';
import { listPeopleRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';
import { listDirectory } from '../../shared/people/directory.ts';

export const handler = route(listPeopleRoute, async (req) => {
  const page = await listDirectory(req.query);
  return { items: await toDirectoryEntries(page.users), nextCursor: page.nextCursor };
});
