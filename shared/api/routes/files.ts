import { API_PREFIX, defineRoute } from '../route-def.ts';

/** File downloads (spec 1.1 rule 10, decisions 3): with the session, the stored bytes and content type. */
export const getAvatarFile = defineRoute({
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
});

export const fileRoutes = [getAvatarFile];
