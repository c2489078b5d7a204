import { getAvatarFileRoute } from '../../shared/api/routes/files.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { readAvatar } from '../../shared/people/avatars.ts';
import { mediaHeaders } from '../../shared/storage/media-headers.ts';

/** Avatar keys are unique per upload, so the bytes never change: clients may keep them. */
export const handler = route(getAvatarFileRoute, async (req) => {
  const file = await readAvatar(req.params.key);
  return rawReply(file.data, file.contentType, {
    'cache-control': 'private, max-age=31536000, immutable',
    ...mediaHeaders(file.contentType),
  });
});
