import { createHash } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { API_PREFIX } from '../config/api-prefix.ts';
import { notFound } from '../errors.ts';
import { bucketName, s3 } from '../storage/client.ts';

/**
 * Where avatars live and how they are served (no image code here, so readers of avatar paths do not
 * load sharp; uploads are in avatar-upload.ts). An avatar is the object `avatars/<key>` of the bucket,
 * `<key>` = `<owner tag>_<time-sortable id>.webp`, and clients see it as `/api/v1/files/avatars/<key>`.
 *
 * The owner tag is keyed (avatar-tag.ts, under AVATAR_SECRET): the public website links avatars by
 * their object key (signed URLs), and nobody who knows a person's id can tell their avatar from it,
 * nor link an erased person's opaque id back to them. Two earlier forms are still read, erased and
 * accepted as the owner's (the migration `0009-avatars-keyed-tag` moves the profile's avatar to the
 * keyed form): `<unkeyed tag>_...` (`legacyAvatarOwnerTag`, 0.2.0) and `<userId>_...` (0.1.0); neither
 * is published. This module reads no secret, so the functions that only serve avatars hold none.
 */
export const AVATARS_PREFIX = 'avatars/';
export const avatarPath = (key: string) => `${API_PREFIX}/files/avatars/${key}`;
/**
 * The owner tag of 0.2.0: 128 bits of an unkeyed SHA-256 over the user id. Anybody who knows the id
 * can compute it, so it is only read (and erased), never given to a new avatar.
 */
export const legacyAvatarOwnerTag = (userId: string) =>
  createHash('sha256').update(`avatar-owner:${userId}`).digest('base64url').slice(0, 22);
/** Keys of the first layout named the person: `<uuid>_...`. */
export const embedsUserId = (key: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_/i.test(key);
/** The key prefixes of a person's avatars in the earlier forms (unkeyed tag, then user id), without `avatars/`. */
export const legacyAvatarKeyPrefixes = (userId: string) => [`${legacyAvatarOwnerTag(userId)}_`, `${userId}_`];

export const isAvatarKey = (key: string) => /^[A-Za-z0-9_-]{1,120}\.webp$/.test(key);

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
