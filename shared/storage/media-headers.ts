/**
 * The headers of every answer that carries uploaded media (the file download routes; the CloudFront
 * media behaviours set the same through their response headers policy, infra/stacks/edge-stack.ts).
 * Media are served on the API's own origin, so whatever slipped past the upload checks must never run
 * as a page there: `sandbox` gives a document opened from it an opaque origin without scripts,
 * `nosniff` keeps browsers to the verified type, and what is neither an image nor a video is a
 * download, never shown inline.
 */
export const MEDIA_CONTENT_SECURITY_POLICY = 'sandbox';

/** Images and videos are shown inline; anything else (PDF documents) is saved. SVG is never accepted. */
export const showsInline = (mimeType: string) => /^(image|video)\//i.test(mimeType) && !/svg/i.test(mimeType);

export function mediaHeaders(mimeType: string): Record<string, string> {
  return {
    'content-security-policy': MEDIA_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    ...(showsInline(mimeType) ? {} : { 'content-disposition': 'attachment' }),
  };
}
