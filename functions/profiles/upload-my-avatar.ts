import { toProfile } from '../../shared/api/profile.ts';
import { uploadMyAvatarRoute } from '../../shared/api/routes/profiles.ts';
import { uploadRoute } from '../../shared/http/upload-route.ts';
import { uploadedFile } from '../../shared/http/uploaded-file.ts';
import { setAvatar } from '../../shared/people/avatar-upload.ts';

export const handler = uploadRoute(uploadMyAvatarRoute, async (req) =>
  toProfile(await setAvatar(req.caller.userId, uploadedFile(req.files).data, req.caller.userId), req.caller),
);
