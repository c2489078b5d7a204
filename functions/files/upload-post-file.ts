import { uploadPostFile } from '../../shared/api/routes/feed.ts';
import { storeDirectUpload } from '../../shared/feed/uploads.ts';
import { badRequest } from '../../shared/http/errors.ts';
import { uploadRoute } from '../../shared/http/upload-route.ts';

export const handler = uploadRoute(uploadPostFile, async (req) => {
  const file = req.files.find((f) => f.field === 'file');
  if (!file) throw badRequest(['file: a part named file is required']);
  return storeDirectUpload(req.caller.userId, file);
});
