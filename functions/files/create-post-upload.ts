import { createPostUpload } from '../../shared/api/routes/feed.ts';
import { createPresignedUpload } from '../../shared/feed/uploads.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(createPostUpload, async (req) => createPresignedUpload(req.caller.userId, req.body));
