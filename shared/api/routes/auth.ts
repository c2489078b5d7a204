import * as z from '../../util/zod.ts';
import { boolParam } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, password, SessionUser } from '../schemas/common.ts';

const A = `${API_PREFIX}/auth`;

export const SessionView = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      token: z.described(z.string(), 'An opaque revocation handle for revoke-session; never a credential'),
      userId: z.string(),
      createdAt: isoDateTime(),
      expiresAt: isoDateTime(),
      updatedAt: isoDateTime(),
      userAgent: z.nullable(z.string()),
      ipAddress: z.described(z.null(), 'Always null: addresses are not recorded'),
      current: z.boolean(),
    }),
    { id: 'Session' },
  ),
);

const StatusTrue = /* @__PURE__ */ declared(() => z.object({ status: z.literal(true) }));
/** A new bearer token, also in `set-auth-token`, when the answer rotated the caller's session; else null. */
const NewToken = /* @__PURE__ */ declared(() => z.nullable(z.string()));

export const signInRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'sign-in-email',
    area: 'auth',
    method: 'POST',
    path: `${A}/sign-in/email`,
    auth: 'public',
    summary: 'Signs in; the token comes back in the `set-auth-token` header and as the web cookie.',
    body: z.strictObject({
      email: z.string().check(z.maxLength(254)),
      password: z.string().check(z.maxLength(200)),
      rememberMe: z.described(z.optional(z.boolean()), 'Accepted for better-auth clients; every session lasts 7 days'),
      callbackURL: z.described(
        z.optional(z.string().check(z.maxLength(2000))),
        'Accepted for better-auth clients and ignored: nothing redirects',
      ),
    }),
    status: 200,
    response: z.object({ redirect: z.literal(false), token: z.string(), user: SessionUser }),
    // 403: password sign-in is switched off for members (docs/sso.md).
    errors: [400, 401, 403, 429],
    access: { table: 'write' },
  }),
);

export const signOutRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'sign-out',
    area: 'auth',
    method: 'POST',
    path: `${A}/sign-out`,
    auth: 'session',
    summary: 'Ends the calling session only.',
    status: 200,
    response: z.object({ success: z.literal(true) }),
    access: { table: 'write' },
  }),
);

export const getSessionRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-session',
    area: 'auth',
    method: 'GET',
    path: `${A}/get-session`,
    auth: 'session',
    summary: 'Validates a token and answers the session and its person.',
    query: z.strictObject({
      disableCookieCache: z.described(boolParam(), 'Accepted for better-auth clients; without effect'),
      disableRefresh: z.described(boolParam(), 'Accepted for better-auth clients; without effect'),
    }),
    status: 200,
    response: z.object({ session: SessionView, user: SessionUser }),
    access: { table: 'write' },
  }),
);

export const changePasswordRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'change-password',
    area: 'auth',
    method: 'POST',
    path: `${A}/change-password`,
    auth: 'session',
    summary:
      'Changes the password. With revokeOtherSessions every other session ends and the caller gets a new token. Throttled per account like sign-in.',
    body: z.strictObject({
      currentPassword: z.string().check(z.maxLength(200)),
      newPassword: password(128),
      revokeOtherSessions: z.optional(z.boolean()),
    }),
    status: 200,
    response: z.object({ token: NewToken, user: SessionUser }),
    errors: [400, 429],
    access: { table: 'write' },
  }),
);

export const requestPasswordResetRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'request-password-reset',
    area: 'auth',
    method: 'POST',
    path: `${A}/request-password-reset`,
    auth: 'public',
    summary: 'Accepted for any address; sends nothing (no e-mail provider is wired for resets).',
    body: z.strictObject({
      email: z.string().check(z.maxLength(254)),
      redirectTo: z.optional(z.string().check(z.maxLength(2000))),
    }),
    status: 200,
    response: StatusTrue,
    errors: [400],
  }),
);

export const resetPasswordRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'reset-password',
    area: 'auth',
    method: 'POST',
    path: `${A}/reset-password`,
    auth: 'public',
    summary: 'Consumes the token of a reset link.',
    body: z.strictObject({ token: z.string().check(z.maxLength(500)), newPassword: password(128) }),
    status: 200,
    response: StatusTrue,
    errors: [400],
    access: { table: 'write' },
  }),
);

export const updateUserRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-user',
    area: 'auth',
    method: 'POST',
    path: `${A}/update-user`,
    auth: 'session',
    summary: 'Changes the name and the image path only.',
    body: z.strictObject({
      name: z.optional(
        z
          .string()
          .check(z.maxLength(120))
          .check(z.refine((s) => s.trim().length > 0, 'must not be empty')),
      ),
      image: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
    }),
    status: 200,
    response: StatusTrue,
    // 403: an image path that is not one of the caller's own avatars.
    errors: [400, 403],
    access: { table: 'write' },
  }),
);

export const listSessionsRouteRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-sessions',
    area: 'auth',
    method: 'GET',
    path: `${A}/list-sessions`,
    auth: 'session',
    summary: "The caller's live sessions; `current` marks this one.",
    status: 200,
    response: z.array(SessionView),
    access: { table: 'write' },
  }),
);

export const revokeSessionRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'revoke-session',
    area: 'auth',
    method: 'POST',
    path: `${A}/revoke-session`,
    auth: 'session',
    summary: "Signs one of the caller's sessions out, named by its id or by its handle (Session.token): exactly one.",
    body: z
      .strictObject({
        id: z.optional(z.string().check(z.maxLength(200))),
        token: z.optional(z.string().check(z.maxLength(200))),
      })
      .check(z.refine((b) => (b.id === undefined) !== (b.token === undefined), 'send exactly one of id and token')),
    status: 200,
    response: StatusTrue,
    errors: [400, 404],
    access: { table: 'write' },
  }),
);

export const revokeOtherSessionsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'revoke-other-sessions',
    area: 'auth',
    method: 'POST',
    path: `${A}/revoke-other-sessions`,
    auth: 'session',
    summary: 'Ends every session of the caller but this one.',
    status: 200,
    response: StatusTrue,
    access: { table: 'write' },
  }),
);

export const revokeSessionsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'revoke-sessions',
    area: 'auth',
    method: 'POST',
    path: `${A}/revoke-sessions`,
    auth: 'session',
    summary: 'Ends every session of the caller, this one included.',
    status: 200,
    response: StatusTrue,
    access: { table: 'write' },
  }),
);

export const authRoutes = [
  signInRoute,
  signOutRoute,
  getSessionRoute,
  changePasswordRoute,
  requestPasswordResetRoute,
  resetPasswordRoute,
  updateUserRoute,
  listSessionsRouteRoute,
  revokeSessionRoute,
  revokeOtherSessionsRoute,
  revokeSessionsRoute,
];
