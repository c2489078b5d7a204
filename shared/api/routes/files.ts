import { API_PREFIX, declared, defineRoute } from '../route-def.ts';

/**
 * File downloads: with the session, the stored bytes and content type. No zod schema here (the
 * answers are raw bytes), so the download functions' bundles carry none; uploads are `uploads.ts`.
 */
export const getAvatarFileRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-avatar-file',
    area: 'files',
    method: 'GET',
    path: `${API_PREFIX}/files/avatars/{key}`,
    auth: 'session',
    summary: 'An avatar image (WebP) by the key of its path; 404 for an unknown key.',
    status: 200,
    raw: true,
    errors: [404],
    access: { bucket: [{ prefix: 'avatars/', actions: ['read'] }] },
  }),
);

export const getPostFileRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-post-file',
    area: 'files',
    method: 'GET',
    path: `${API_PREFIX}/files/posts/{key}`,
    auth: 'session',
    summary: 'A post file: the bytes, or a 302 to a short-lived signed URL (large files, videos). Unknown key 404.',
    status: 200,
    raw: true,
    redirects: true,
    errors: [404],
    access: { bucket: [{ prefix: 'posts/', actions: ['read'] }] },
  }),
);

export const fileRoutes = [getAvatarFileRoute, getPostFileRoute];
