import { toDirectoryEntries } from '../../shared/api/profile.ts';
import { previewAudienceRoute } from '../../shared/api/routes/audiences.ts';
import { previewAudience } from '../../shared/audiences/audiences.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(previewAudienceRoute, async (req) => {
  const preview = await previewAudience(req.body);
  return { count: preview.count, people: await toDirectoryEntries(preview.users) };
});
