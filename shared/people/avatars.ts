import { createHash } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { API_PREFIX } from '../api/route-def.ts';
import { notFound } from '../errors.ts';
import { bucketName, s3 } from '../storage/client.ts';

/**
 * Where avatars live and how they are served (no image code here, so readers of avatar paths do not
 * load sharp; uploads are in avatar-upload.ts). An avatar is the object `avatars/<key>` of the bucket,
 * `<key>` = `<owner tag>_<time-sortable id>.webp`, and clients see it as `/api/v1/files/avatars/<key>`.
 *
 * The owner tag is a one-way hash of the person's id, not the id: the public website links avatars
 * by their object key (signed URLs), and public answers carry no internal user ids. The tag still
 * lets `POST /auth/update-user` check that a path is one of the caller's own avatars. Keys stored
 * before the tag (`<userId>_...`) are still accepted as the owner's, but never published.
 */
export const AVATARS_PREFIX = 'avatars/';
export const avatarPath = (key: string) => `${API_PREFIX}/files/avatars/${key}`;
/** 128 bits of SHA-256 over the (random, 122-bit) user id: nobody outside learns the id from it. */
export const avatarOwnerTag = (userId: string) =>
  createHash('sha256').update(`avatar-owner:${userId}`).digest('base64url').slice(0, 22);
/** A new, unique key for a person's avatar (its prefix is the owner's tag). */
export const newAvatarKey = (userId: string, uniqueId: string) => `${avatarOwnerTag(userId)}_${uniqueId}.webp`;
/** Keys of the first layout named the person: `<uuid>_...`. */
export const embedsUserId = (key: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_/i.test(key);

const isAvatarKey = (key: string) => /^[A-Za-z0-9_-]{1,120}\.webp$/.test(key);

/** Whether an image path is one of this person's avatar paths (what `POST /auth/update-user` may set). */
export const isOwnAvatarPath = (userId: string, path: string) =>
  (path.startsWith(avatarPath(`${avatarOwnerTag(userId)}_`)) || path.startsWith(avatarPath(`${userId}_`))) &&
  isAvatarKey(path.slice(avatarPath('').length));

/** The stored bytes of an avatar, or 404. */
export async function readAvatar(key: string): Promise<{ data: Buffer; contentType: string }> {
  if (!isAvatarKey(key)) throw notFound('No such file.');
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: `${AVATARS_PREFIX}${key}` }));
    const data = Buffer.from(await out.Body!.transformToByteArray());
    // Every avatar is a WebP the service rendered itself (avatar-upload.ts), whatever the object says.
    return { data, contentType: 'image/webp' };
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404)
      throw notFound('No such file.');
    throw err;
  }
}
