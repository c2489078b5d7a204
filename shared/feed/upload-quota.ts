import type { TransactItem } from '../db/table.ts';
import { type DomainError, tooMany } from '../errors.ts';
import { UploadQuota } from './entities.ts';

/**
 * The daily upload quota of post files: each person may start at most `UPLOADS_PER_DAY` uploads and
 * `UPLOAD_BYTES_PER_DAY` bytes (as declared; presigned uploads are signed to that length) per UTC day,
 * so nobody can fill the bucket. The counters move in the same transaction as the upload's record
 * (the grant), under the quota's condition, so concurrent requests cannot overshoot it.
 */
export const UPLOADS_PER_DAY = 100;
export const UPLOAD_BYTES_PER_DAY = 2 * 1024 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** The quota's share of an upload grant: one upload and its bytes, refused past either limit. */
export function takeUploadQuota(userId: string, bytes: number, now = new Date()): TransactItem {
  const day = dayOf(now);
  const dayEnds = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
  return UploadQuota.update(
    { userId, day },
    {
      UpdateExpression:
        'ADD uploads :one, #bytes :bytes SET #entity = :entity, userId = :user, #day = :day, #ttl = :ttl',
      ConditionExpression:
        '(attribute_not_exists(uploads) OR uploads < :maxUploads) AND (attribute_not_exists(#bytes) OR #bytes <= :bytesLeft)',
      ExpressionAttributeNames: { '#bytes': 'bytes', '#entity': 'entity', '#day': 'day', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':one': 1,
        ':bytes': bytes,
        ':entity': UploadQuota.name,
        ':user': userId,
        ':day': day,
        ':ttl': Math.floor((dayEnds + DAY_MS) / 1000),
        ':maxUploads': UPLOADS_PER_DAY,
        ':bytesLeft': UPLOAD_BYTES_PER_DAY - bytes,
      },
    },
  );
}

/** The refusal past the quota: retrying can succeed when the UTC day ends. */
export function quotaExceeded(now = new Date()): DomainError {
  const dayEnds = Date.parse(`${dayOf(now)}T00:00:00Z`) + DAY_MS;
  const seconds = Math.max(1, Math.ceil((dayEnds - now.getTime()) / 1000));
  return tooMany(
    `You reached today's upload quota (${UPLOADS_PER_DAY} files, ${UPLOAD_BYTES_PER_DAY / 1024 ** 3} GB); uploads open again at midnight UTC.`,
    seconds,
  );
}
