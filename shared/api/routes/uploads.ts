import { PostUpload, UploadQuota } from '../../feed/entities.ts';
import { PENDING_UPLOADS_PREFIX } from '../../storage/pending-uploads.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute, type RouteAccess } from '../route-def.ts';
import { isoDateTime } from '../schemas/common.ts';

/**
 * Post media uploads (area `files`): direct uploads write (and on refusal remove) their objects under
 * `posts/`; a presigned upload's PUT, signed with its function's role, goes under the pending prefix.
 */
/** An upload records itself and books the uploader's daily quota. */
const uploadWrites = [PostUpload, UploadQuota];
const direct: RouteAccess = {
  table: 'write',
  writes: uploadWrites,
  bucket: [{ prefix: 'posts/', actions: ['write', 'delete'] }],
};
const presigned: RouteAccess = {
  table: 'write',
  writes: uploadWrites,
  bucket: [{ prefix: PENDING_UPLOADS_PREFIX, actions: ['write'] }],
};
export const UploadedFile = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      path: z.string(),
      mimeType: z.string(),
      sizeBytes: z.number().check(z.int()),
      name: z.string(),
      width: z.nullable(z.number().check(z.int())),
      height: z.nullable(z.number().check(z.int())),
    }),
    { id: 'UploadedPostFile' },
  ),
);

export const uploadPostFileRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'upload-post-file',
    area: 'files',
    method: 'POST',
    path: `${API_PREFIX}/files/posts`,
    auth: 'session',
    summary: 'Uploads an image (JPG, PNG, WebP, GIF) or a PDF up to 4 MB (multipart, one part named file).',
    multipart: { maxBytes: 4 * 1024 * 1024 },
    idempotent: true,
    status: 201,
    response: UploadedFile,
    errors: [400, 413, 429],
    access: direct,
    timeout: 29,
    memory: 1024,
  }),
);

export const createPostUploadRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-post-upload',
    area: 'files',
    method: 'POST',
    path: `${API_PREFIX}/files/posts/uploads`,
    auth: 'session',
    summary: 'A presigned PUT for larger images and documents (10 MB) and videos (MP4, WebM; 200 MB).',
    body: z.strictObject({
      name: z.string().check(z.minLength(1)).check(z.maxLength(200)),
      mimeType: z.string().check(z.minLength(1)).check(z.maxLength(100)),
      sizeBytes: z.number().check(z.int()).check(z.positive()),
    }),
    idempotent: true,
    status: 201,
    response: z.object({ path: z.string(), uploadUrl: z.string(), expiresAt: isoDateTime() }),
    errors: [400, 413, 429],
    access: presigned,
  }),
);

export const uploadRoutes = [uploadPostFileRoute, createPostUploadRoute];
