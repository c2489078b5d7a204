import { invalid } from '../errors.ts';
import { isOwnAvatarPath } from './avatar-tag.ts';
import { updateProfile } from './profile-update.ts';

/** `POST /auth/update-user`: name and image only. An image must be one of the service's avatar paths of this person. */
export async function updateNameAndImage(
  userId: string,
  input: { name?: string; image?: string | null },
): Promise<void> {
  if (input.image !== undefined && input.image !== null && !isOwnAvatarPath(userId, input.image)) {
    throw invalid(['image: must be an avatar path of yours (upload with POST /users/me/avatar)']);
  }
  if (input.name === undefined && input.image === undefined) return;
  await updateProfile(userId, { name: input.name, image: input.image }, { actorId: userId, allowJoinedOn: false });
}
