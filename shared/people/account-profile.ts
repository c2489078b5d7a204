import { userKey } from '../db/keys.ts';
import { updateItem } from '../db/table.ts';
import { badRequest } from '../http/errors.ts';

/** `POST /auth/update-user`: name and image only. An image must be one of the service's avatar paths. */
export async function updateNameAndImage(userId: string, input: { name?: string; image?: string | null }): Promise<void> {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (input.name !== undefined) {
    sets.push('#n = :n');
    values[':n'] = input.name.trim();
  }
  if (input.image !== undefined) {
    if (input.image !== null && !input.image.startsWith(`/api/v1/files/avatars/${userId}`)) {
      throw badRequest(['image: must be an avatar path of yours (upload with POST /users/me/avatar)']);
    }
    sets.push('image = :i');
    values[':i'] = input.image;
  }
  if (sets.length === 0) return;
  await updateItem({
    Key: userKey(userId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: input.name !== undefined ? { '#n': 'name' } : undefined,
    ExpressionAttributeValues: values,
  });
}
