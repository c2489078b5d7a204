import { toProfile } from '../../shared/api/profile.ts';
import { uploadPersonAvatarRoute } from '../../shared/api/routes/profiles.ts';
import { uploadRoute } from '../../shared/http/upload-route.ts';
import { uploadedFile } from '../../shared/http/uploaded-file.ts';
import { setAvatar } from '../../shared/people/avatar-upload.ts';
import { requireUser } from '../../shared/people/members.ts';

export const handler = uploadRoute(uploadPersonAvatarRoute, async (req) => {
  await requireUser(req.params.userId); // 404 before any image work
  return toProfile(await setAvatar(req.params.userId, uploadedFile(req.files).data, req.caller.userId), req.caller);
});
