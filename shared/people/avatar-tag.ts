import { derivedKey, keyedTag } from '../config/keyed-crypto.ts';
import { secret } from '../config/secrets.ts';
import { AVATARS_PREFIX, avatarPath, isAvatarKey, legacyAvatarKeyPrefixes } from './avatars.ts';

/**
 * The keyed owner tag of avatar object keys (avatars.ts): 132 bits of HMAC-SHA256 of the user id
 * under a key derived from AVATAR_SECRET for this use alone. The functions that give, check or
 * erase avatars import this module, and so are granted the secret (shared/config/secrets.ts); the
 * ones that only serve them do not. The secret is never rotated: a person's avatars are found (by
 * their owner, and by the erasure) through this tag.
 */
const key = () => derivedKey(secret('avatar'), 'workplace-avatars', 'owner-tag');

export const avatarOwnerTag = (userId: string) => keyedTag(key(), ['avatar-owner', userId]).slice(0, 22);

/** A new, unique key for a person's avatar (its prefix is the owner's keyed tag). */
export const newAvatarKey = (userId: string, uniqueId: string) => `${avatarOwnerTag(userId)}_${uniqueId}.webp`;

/** Every key prefix a person's avatars may have (the keyed tag's, then the earlier forms'), without `avatars/`. */
export const avatarKeyPrefixes = (userId: string) => [`${avatarOwnerTag(userId)}_`, ...legacyAvatarKeyPrefixes(userId)];

/** Every bucket prefix that holds a person's avatars, in every form: what their erasure removes. */
export const avatarObjectPrefixes = (userId: string) => avatarKeyPrefixes(userId).map((p) => `${AVATARS_PREFIX}${p}`);

/** Whether an image path is one of this person's avatar paths (what `POST /auth/update-user` may set). */
export function isOwnAvatarPath(userId: string, path: string): boolean {
  const key = path.slice(avatarPath('').length);
  return (
    path.startsWith(avatarPath('')) && isAvatarKey(key) && avatarKeyPrefixes(userId).some((p) => key.startsWith(p))
  );
}

/**
 * The keyed form of a person's avatar key in an earlier form (the same unique part under the keyed
 * tag), or null when the key is already keyed or not theirs.
 */
export function keyedAvatarKeyOf(userId: string, key: string): string | null {
  const legacy = legacyAvatarKeyPrefixes(userId).find((p) => key.startsWith(p));
  return legacy ? `${avatarOwnerTag(userId)}_${key.slice(legacy.length)}` : null;
}
