import { uploadMyAvatar } from '../../shared/api/routes/profiles.ts';
import { uploadRoute } from '../../shared/http/upload-route.ts';
import { setAvatar } from '../../shared/people/avatar-upload.ts';
import { toProfile } from '../../shared/people/profile.ts';
import { uploadedFile } from '../../shared/people/upload.ts';

export const handler = uploadRoute(uploadMyAvatar, async (req) =>
  toProfile(await setAvatar(req.caller.userId, uploadedFile(req.files), req.caller.userId), req.caller),
);
