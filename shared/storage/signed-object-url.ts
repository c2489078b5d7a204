import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { bucketName, s3 } from './client.ts';
import { showsInline } from './media-headers.ts';

/**
 * A presigned GET of an object, valid for `seconds` (signed media URLs need no session). The answer's
 * type and disposition are the verified ones, whatever the object was stored with.
 */
export function signedObjectUrl(key: string, seconds: number, mimeType: string): Promise<string> {
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucketName(),
      Key: key,
      ResponseContentType: mimeType,
      ...(showsInline(mimeType) ? {} : { ResponseContentDisposition: 'attachment' }),
    }),
    { expiresIn: seconds },
  );
}
