import { uploadPostFileRoute } from '../../shared/api/routes/uploads.ts';
import { storeDirectUpload } from '../../shared/feed/uploads.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { uploadRoute } from '../../shared/http/upload-route.ts';
import { uploadedFile } from '../../shared/http/uploaded-file.ts';

export const handler = uploadRoute(
  uploadPostFileRoute,
  async (req) => storeDirectUpload(req.caller.userId, uploadedFile(req.files)),
  { idempotency: idempotent },
);
