import { GetObjectCommand } from '@aws-sdk/client-s3';
import { API_PREFIX } from '../api/route-def.ts';
import { notFound } from '../errors.ts';
import { bucketName, s3 } from '../storage/client.ts';

/**
 * Where avatars live and how they are served (no image code here, so readers of avatar paths do not
 * load sharp; uploads are in avatar-upload.ts). An avatar is the object `avatars/<key>` of the bucket,
 * `<key>` = `<userId>_<time-sortable id>.webp`, and clients see it as `/api/v1/files/avatars/<key>`.
 */
export const AVATARS_PREFIX = 'avatars/';
export const avatarPath = (key: string) => `${API_PREFIX}/files/avatars/${key}`;
/** A new, unique key for a person's avatar (its prefix names the person). */
export const newAvatarKey = (userId: string, uniqueId: string) => `${userId}_${uniqueId}.webp`;

const isAvatarKey = (key: string) => /^[A-Za-z0-9_-]{1,120}\.webp$/.test(key);

/** Whether an image path is one of this person's avatar paths (what `POST /auth/update-user` may set). */
export const isOwnAvatarPath = (userId: string, path: string) =>
  path.startsWith(avatarPath(`${userId}_`)) && isAvatarKey(path.slice(avatarPath('').length));

/** The stored bytes of an avatar, or 404. */
export async function readAvatar(key: string): Promise<{ data: Buffer; contentType: string }> {
  if (!isAvatarKey(key)) throw notFound('No such file.');
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: `${AVATARS_PREFIX}${key}` }));
    const data = Buffer.from(await out.Body!.transformToByteArray());
    return { data, contentType: out.ContentType ?? 'image/webp' };
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404)
      throw notFound('No such file.');
    throw err;
  }
}
