/**
 * Where presigned uploads land before they are verified: the uploader's PUT goes to
 * `pending-uploads/<final key>`, and only a verified upload is copied to its final key (with the
 * verified type on the object). A bucket lifecycle rule expires whatever stays here (an upload never
 * attached, or refused and not removed), so abandoned uploads cannot fill the bucket
 * (infra/stacks/data-stack.ts).
 */
export const PENDING_UPLOADS_PREFIX = 'pending-uploads/';
export const PENDING_UPLOADS_EXPIRE_DAYS = 1;
export const pendingKeyOf = (objectKey: string) => `${PENDING_UPLOADS_PREFIX}${objectKey}`;
