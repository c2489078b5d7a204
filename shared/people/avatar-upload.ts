import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { newSortableId } from '../db/ids.ts';
import { DomainError, invalid } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { bucketName, s3 } from '../storage/client.ts';
import { newAvatarKey } from './avatar-tag.ts';
import { AVATARS_PREFIX, avatarPath } from './avatars.ts';
import { changePerson } from './change-person.ts';
import type { UserItem } from './users.ts';

/** Every accepted image becomes a square WebP of this size (smaller images are enlarged). */
export const AVATAR_SIZE = 256;
/**
 * Decoding limit: a 2 MB file can declare billions of pixels (a decompression bomb). 40 megapixels
 * covers any camera photo that fits in 2 MB and bounds decoding memory to ~160 MB.
 */
export const AVATAR_MAX_PIXELS = 40_000_000;

type ImageKind = 'jpeg' | 'png' | 'webp';

/** The image type the bytes really are (magic numbers), whatever name or type the upload claims. */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

const notAnImage = () => invalid(['file: must be a JPG, PNG or WebP image']);
const unreadable = () => invalid(['file: the image could not be read (damaged or truncated)']);
const tooManyPixels = () =>
  invalid([`file: the image has too many pixels (at most ${AVATAR_MAX_PIXELS / 1_000_000} megapixels)`]);

/**
 * Checks and re-encodes an upload: JPG, PNG or WebP by content, at most AVATAR_MAX_PIXELS, decoded
 * strictly (a truncated file fails), oriented, cropped to a centred square and stored as a 256 × 256
 * WebP. Anything else is a 400 before anything is stored.
 */
export async function renderAvatar(bytes: Buffer): Promise<Buffer> {
  const kind = sniffImage(bytes);
  if (!kind) throw notAnImage();
  try {
    const image = sharp(bytes, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'warning', animated: false });
    const meta = await image.metadata();
    if (meta.format !== kind) throw notAnImage();
    if (!meta.width || !meta.height) throw unreadable();
    if (meta.width * meta.height > AVATAR_MAX_PIXELS) throw tooManyPixels();
    return await image
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw /pixel limit/i.test(String((err as Error)?.message)) ? tooManyPixels() : unreadable();
  }
}

/**
 * Sets a person's avatar from an upload: renders it (400 on anything but a readable image), stores
 * the WebP under `avatars/`, then points the profile at it. If the profile cannot be updated the
 * object is removed again, so a failed upload leaves nothing stored. Replaced avatars stay stored
 * (`POST /auth/update-user` may point back at one of the person's own).
 */
export async function setAvatar(userId: string, upload: Buffer, actorId: string): Promise<UserItem> {
  const webp = await renderAvatar(upload);
  const key = newAvatarKey(userId, newSortableId());
  const object = { Bucket: bucketName(), Key: `${AVATARS_PREFIX}${key}` };
  await s3().send(
    new PutObjectCommand({
      ...object,
      Body: webp,
      ContentType: 'image/webp',
      CacheControl: 'private, max-age=31536000, immutable',
    }),
  );
  try {
    return await changePerson(userId, (u) => ({ ...u, image: avatarPath(key) }), { actorId });
  } catch (err) {
    // The profile did not take the new avatar: remove its object, and keep the profile's error as the answer.
    await s3()
      .send(new DeleteObjectCommand(object))
      .catch((cleanup) => logger.warn('avatar upload: the unused object was not removed', { key, error: cleanup }));
    throw err;
  }
}
