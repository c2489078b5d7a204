import { createPostUploadRoute } from '../../shared/api/routes/uploads.ts';
import { createPresignedUpload } from '../../shared/feed/uploads.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createPostUploadRoute, async (req) =>
  createPresignedUpload(req.caller.userId, req.body),
);
