import * as z from 'zod';
import { API_PREFIX, defineRoute } from '../route-def.ts';
import { isoDateTime, password, SessionUser } from '../schemas/common.ts';

const A = `${API_PREFIX}/auth`;

export const Session = z
  .object({
    id: z.string(),
    createdAt: isoDateTime(),
    expiresAt: isoDateTime(),
    updatedAt: isoDateTime(),
    userAgent: z.string().nullable(),
    current: z.boolean(),
  })
  .meta({ id: 'Session' });

const StatusTrue = z.object({ status: z.literal(true) });

export const signIn = defineRoute({
  name: 'sign-in-email',
  area: 'auth',
  method: 'POST',
  path: `${A}/sign-in/email`,
  auth: 'public',
  summary: 'Signs in; the token comes back in the `set-auth-token` header and as the web cookie.',
  body: z.strictObject({
    email: z.string().max(254),
    password: z.string().max(200),
    rememberMe: z.boolean().optional(),
  }),
  status: 200,
  response: z.object({ user: SessionUser }),
  errors: [400, 401, 429],
  access: { table: 'write' },
});

export const signOut = defineRoute({
  name: 'sign-out',
  area: 'auth',
  method: 'POST',
  path: `${A}/sign-out`,
  auth: 'session',
  summary: 'Ends the calling session only.',
  status: 200,
  response: z.object({ success: z.literal(true) }),
  access: { table: 'write' },
});

export const getSession = defineRoute({
  name: 'get-session',
  area: 'auth',
  method: 'GET',
  path: `${A}/get-session`,
  auth: 'session',
  summary: 'Validates a token and answers the session and its person.',
  status: 200,
  response: z.object({ session: Session, user: SessionUser }),
  access: { table: 'write' },
});

export const changePassword = defineRoute({
  name: 'change-password',
  area: 'auth',
  method: 'POST',
  path: `${A}/change-password`,
  auth: 'session',
  summary: 'Changes the password; optionally ends every other session.',
  body: z.strictObject({
    currentPassword: z.string().max(200),
    newPassword: password(128),
    revokeOtherSessions: z.boolean().optional(),
  }),
  status: 200,
  response: z.object({ user: SessionUser }),
  errors: [400],
  access: { table: 'write' },
});

export const requestPasswordReset = defineRoute({
  name: 'request-password-reset',
  area: 'auth',
  method: 'POST',
  path: `${A}/request-password-reset`,
  auth: 'public',
  summary: 'Accepted for any address; sends nothing (no e-mail provider is wired for resets).',
  body: z.strictObject({ email: z.string().max(254), redirectTo: z.string().max(2000).optional() }),
  status: 200,
  response: StatusTrue,
  errors: [400],
});

export const resetPassword = defineRoute({
  name: 'reset-password',
  area: 'auth',
  method: 'POST',
  path: `${A}/reset-password`,
  auth: 'public',
  summary: 'Consumes the token of a reset link.',
  body: z.strictObject({ token: z.string().max(500), newPassword: password(128) }),
  status: 200,
  response: StatusTrue,
  errors: [400],
  access: { table: 'write' },
});

export const updateUser = defineRoute({
  name: 'update-user',
  area: 'auth',
  method: 'POST',
  path: `${A}/update-user`,
  auth: 'session',
  summary: 'Changes the name and the image path only.',
  body: z.strictObject({
    name: z
      .string()
      .max(120)
      .refine((s) => s.trim().length > 0, 'must not be empty')
      .optional(),
    image: z.string().max(500).nullable().optional(),
  }),
  status: 200,
  response: StatusTrue,
  errors: [400],
  access: { table: 'write' },
});

export const listSessionsRoute = defineRoute({
  name: 'list-sessions',
  area: 'auth',
  method: 'GET',
  path: `${A}/list-sessions`,
  auth: 'session',
  summary: "The caller's live sessions; `current` marks this one.",
  status: 200,
  response: z.array(Session),
  access: { table: 'write' },
});

export const revokeSession = defineRoute({
  name: 'revoke-session',
  area: 'auth',
  method: 'POST',
  path: `${A}/revoke-session`,
  auth: 'session',
  summary: "Signs one of the caller's sessions out.",
  body: z.strictObject({ id: z.string().max(200) }),
  status: 200,
  response: StatusTrue,
  errors: [400, 404],
  access: { table: 'write' },
});

export const authRoutes = [
  signIn,
  signOut,
  getSession,
  changePassword,
  requestPasswordReset,
  resetPassword,
  updateUser,
  listSessionsRoute,
  revokeSession,
];
