import { getPostFileRoute } from '../../shared/api/routes/files.ts';
import { openPostFile } from '../../shared/feed/uploads.ts';
import { rawReply, redirect } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { mediaHeaders } from '../../shared/storage/media-headers.ts';

/** Upload keys are unique per upload, so the bytes never change: clients may keep them. */
export const handler = route(getPostFileRoute, async (req) => {
  const file = await openPostFile(req.params.key);
  if ('url' in file) return redirect(file.url, mediaHeaders(file.contentType));
  return rawReply(file.bytes, file.contentType, {
    'cache-control': 'private, max-age=31536000, immutable',
    ...mediaHeaders(file.contentType),
  });
});
