import { SsoState } from '../../auth/entities.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';

/** Single sign-on with OpenID Connect (docs/sso.md), as better-auth's SSO client plugin calls it. */
const A = `${API_PREFIX}/auth`;
const url = () => z.string().check(z.maxLength(2000));

export const signInSsoRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'sign-in-sso',
    area: 'auth',
    method: 'POST',
    path: `${A}/sign-in/sso`,
    auth: 'public',
    summary:
      "Starts a sign-in at the company's identity provider (named by providerId `oidc`, or found by the e-mail's domain): answers its authorization URL for the client to open. The callback URLs must be paths of this service or URLs on its allowed origins.",
    body: z.strictObject({
      providerId: z.optional(z.string().check(z.maxLength(100))),
      email: z.optional(z.string().check(z.maxLength(254))),
      callbackURL: z.described(z.optional(url()), 'Where the browser goes once signed in (default: `/`)'),
      errorCallbackURL: z.described(
        z.optional(url()),
        'Where it goes when refused, with `?error=<code>` (default: callbackURL)',
      ),
      newUserCallbackURL: z.described(
        z.optional(url()),
        'Accepted for better-auth clients; a member made at sign-in (SSO_CREATE_MEMBERS) goes to callbackURL',
      ),
      domain: z.described(
        z.optional(z.string().check(z.maxLength(254))),
        'Accepted for better-auth clients; without effect',
      ),
      organizationSlug: z.described(
        z.optional(z.string().check(z.maxLength(200))),
        'Accepted for better-auth clients; without effect',
      ),
      loginHint: z.described(z.optional(z.string().check(z.maxLength(254))), 'Passed to the provider as login_hint'),
      scopes: z.described(
        z.optional(z.array(z.string().check(z.maxLength(100))).check(z.maxLength(20))),
        'Accepted for better-auth clients; the scopes are openid email profile',
      ),
      requestSignUp: z.described(
        z.optional(z.boolean()),
        'Accepted for better-auth clients; whether a new person becomes a member is a setting (SSO_CREATE_MEMBERS)',
      ),
      providerType: z.optional(z.literal('oidc')),
    }),
    status: 200,
    response: z.object({ url: z.string(), redirect: z.literal(true) }),
    // 503: the identity provider cannot be reached.
    errors: [400, 404, 503],
    // Only the flow's state: IAM lets it write nothing else.
    access: { table: 'write', writes: [SsoState] },
  }),
);

export const ssoCallbackRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'sso-callback',
    area: 'auth',
    method: 'GET',
    path: `${A}/sso/callback/{providerId}`,
    auth: 'public',
    summary:
      "The identity provider's redirect URI: exchanges the code, validates the ID token and signs the member in (the session cookie and `set-auth-token`, as the e-mail sign-in), then redirects to the callback URL. A refusal redirects to the error callback URL with `?error=<code>`; an unknown or used state answers 400.",
    // Loose: a client ignores response parameters it does not know (RFC 6749 §4.1.2): Google adds
    // `scope`, `authuser`, `hd` and `prompt`, others their own.
    query: z.looseObject({
      code: z.optional(z.string().check(z.maxLength(2000))),
      state: z.optional(z.string().check(z.maxLength(200))),
      iss: z.optional(z.string().check(z.maxLength(2000))),
      error: z.optional(z.string().check(z.maxLength(200))),
      error_description: z.optional(z.string().check(z.maxLength(2000))),
      session_state: z.optional(z.string().check(z.maxLength(2000))),
    }),
    status: 302,
    responseHeaders: [
      {
        name: 'Location',
        description: 'The callback URL, or the error callback URL with `?error=<code>`.',
        schema: { type: 'string' },
      },
      {
        name: 'set-auth-token',
        description: 'The new session token (bearer clients), when signed in.',
        schema: { type: 'string' },
      },
    ],
    errors: [400, 404],
    access: { table: 'write' },
  }),
);

export const ssoRoutes = [signInSsoRoute, ssoCallbackRoute];
