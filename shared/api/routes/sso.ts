import * as z from 'zod';
import { SsoState } from '../../auth/entities.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';

/** Single sign-on with OpenID Connect (docs/sso.md), as better-auth's SSO client plugin calls it. */
const A = `${API_PREFIX}/auth`;
const url = () => z.string().max(2000);

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
      providerId: z.string().max(100).optional(),
      email: z.string().max(254).optional(),
      callbackURL: url().optional().describe('Where the browser goes once signed in (default: `/`)'),
      errorCallbackURL: url()
        .optional()
        .describe('Where it goes when refused, with `?error=<code>` (default: callbackURL)'),
      newUserCallbackURL: url()
        .optional()
        .describe(
          'Accepted for better-auth clients; a member made at sign-in (SSO_CREATE_MEMBERS) goes to callbackURL',
        ),
      domain: z.string().max(254).optional().describe('Accepted for better-auth clients; without effect'),
      organizationSlug: z.string().max(200).optional().describe('Accepted for better-auth clients; without effect'),
      loginHint: z.string().max(254).optional().describe('Passed to the provider as login_hint'),
      scopes: z
        .array(z.string().max(100))
        .max(20)
        .optional()
        .describe('Accepted for better-auth clients; the scopes are openid email profile'),
      requestSignUp: z
        .boolean()
        .optional()
        .describe(
          'Accepted for better-auth clients; whether a new person becomes a member is a setting (SSO_CREATE_MEMBERS)',
        ),
      providerType: z.literal('oidc').optional(),
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
      code: z.string().max(2000).optional(),
      state: z.string().max(200).optional(),
      iss: z.string().max(2000).optional(),
      error: z.string().max(200).optional(),
      error_description: z.string().max(2000).optional(),
      session_state: z.string().max(2000).optional(),
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
