import { uploadPostFile } from '../../shared/api/routes/feed.ts';
import { storeDirectUpload } from '../../shared/feed/uploads.ts';
import { route } from '../../shared/http/route.ts';
import { uploadedFile } from '../../shared/http/uploaded-file.ts';

export const handler = route(uploadPostFile, async (req) =>
  storeDirectUpload(req.caller.userId, uploadedFile(req.files)),
);
