import { CopyObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { DataMigration } from '../migrations/migration.ts';
import { bucketName, s3 } from '../storage/client.ts';
import { keyedAvatarKeyOf } from './avatar-tag.ts';
import { AVATARS_PREFIX, avatarPath, isAvatarKey } from './avatars.ts';
import { personWrites } from './derived-from-person.ts';
import { User } from './entities.ts';

/** Whether the bucket holds `key` (S3 answers 403 to a missing key without s3:ListBucket). */
async function exists(key: string): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: bucketName(), Key: key }));
    return true;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || status === 403) return false;
    throw err;
  }
}

/**
 * `0009-avatars-keyed-tag` (CHANGELOG.md, 0.3.0): a profile whose avatar has a key of an earlier form
 * (`<unkeyed tag>_...` or `<userId>_...`, avatars.ts) gets the same avatar under its keyed key
 * (avatar-tag.ts): the object is copied (its every byte and type, once: a copy already there is
 * kept), then the profile points at it, with everything derived from the profile, conditioned on the
 * revision read (a change meanwhile wins and the person is read again). The earlier objects stay
 * readable under their keys (never published) until the person's erasure, which removes every form.
 * An avatar whose object is gone gets the keyed path all the same (it was not served before either).
 */
export const avatarKeyedTagMigration: DataMigration = {
  id: '0009-avatars-keyed-tag',
  description: "profiles' avatars move to keys under the keyed owner tag (AVATAR_SECRET)",
  entities: ['User'],
  pageSize: 25,
  async migrate(item) {
    if (!User.is(item) || !item.image?.startsWith(avatarPath(''))) return [];
    const user = item;
    const key = user.image!.slice(avatarPath('').length);
    const keyed = isAvatarKey(key) ? keyedAvatarKeyOf(user.id, key) : null;
    if (!keyed) return [];
    const target = `${AVATARS_PREFIX}${keyed}`;
    if (!(await exists(target)) && (await exists(`${AVATARS_PREFIX}${key}`)))
      await s3().send(
        new CopyObjectCommand({
          Bucket: bucketName(),
          Key: target,
          CopySource: `${bucketName()}/${AVATARS_PREFIX}${key}`,
          MetadataDirective: 'COPY',
        }),
      );
    return personWrites(user, { ...user, image: avatarPath(keyed) }, { actorId: null });
  },
};
