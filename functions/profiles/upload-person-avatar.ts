import { uploadPersonAvatar } from '../../shared/api/routes/profiles.ts';
import { uploadRoute } from '../../shared/http/upload-route.ts';
import { setAvatar } from '../../shared/people/avatar-upload.ts';
import { requireUser } from '../../shared/people/members.ts';
import { toProfile } from '../../shared/people/profile.ts';
import { uploadedFile } from '../../shared/people/upload.ts';

export const handler = uploadRoute(uploadPersonAvatar, async (req) => {
  await requireUser(req.params.userId); // 404 before any image work
  return toProfile(await setAvatar(req.params.userId, uploadedFile(req.files), req.caller.userId), req.caller);
});
