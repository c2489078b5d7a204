import { randomBytes } from 'node:crypto';
import { EmailClaim, SsoLink, SsoMemberLink, SsoState } from '../auth/entities.ts';
import { createSession } from '../auth/sessions.ts';
import { hashToken } from '../auth/tokens.ts';
import { env } from '../config/env.ts';
import { ABSENT, PRESENT } from '../db/entity.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { activateOnFirstSignIn } from '../people/activation.ts';
import type { UserItem } from '../people/entities.ts';
import { createMember } from '../people/members.ts';
import { getUser } from '../people/users.ts';
import { OIDC_PROVIDER_ID, type OidcSettings, oidcSettings, ssoNotConfigured, unreachable } from './provider.ts';
import { completeAuthorization, type OidcIdentity, SsoRefusal } from './token-exchange.ts';

/** The outcome of a callback: where the browser goes, and the new session's token when it signed in. */
export type SsoOutcome = { redirectTo: string; token: string; user: UserItem } | { redirectTo: string; token?: never };

const withError = (target: string, code: string) => {
  const url = new URL(target);
  url.searchParams.set('error', code);
  return url.href;
};

/**
 * Completes a sign-in on the provider's callback, in the browser that started it (its binding cookie,
 * whose hash the state holds; else 400 and nothing happens). The state is taken once (deleted on a condition):
 * an unknown, expired or reused state is refused with 400 and nothing else happens. Past that, a
 * refusal (the provider's error, a code it does not accept, an ID token that does not validate, a
 * person who is not an active member) sends the browser to the error callback URL with `?error=`,
 * with no session. Only an existing member signs in: nobody is created here unless `SSO_CREATE_MEMBERS`
 * says so (newMember below).
 */
export async function completeSsoSignIn(
  providerId: string,
  callback: URLSearchParams,
  userAgent: string | null,
  browserBinding: string | undefined,
): Promise<SsoOutcome> {
  const settings = oidcSettings();
  if (!settings) throw ssoNotConfigured();
  if (providerId !== OIDC_PROVIDER_ID) throw notFound('No such identity provider.', 'PROVIDER_NOT_FOUND');
  const state = callback.get('state');
  const stale = () => invalid('This sign-in is not valid any more: start it again.', 'INVALID_STATE');
  if (!state || state.length > 200) throw stale();
  const stateHash = hashToken(state);
  const flow = await SsoState.get({ stateHash }, { consistent: true });
  if (!flow || flow.providerId !== providerId) throw stale();
  // Only the browser that started the sign-in completes it (login CSRF: a callback URL sent to somebody
  // else signs them in as nobody). Checked before the state is taken, so a stranger's try spends nothing.
  if (
    !flow.browserHash ||
    !browserBinding ||
    browserBinding.length > 200 ||
    hashToken(browserBinding) !== flow.browserHash
  )
    throw invalid('This sign-in was started in another browser: start it again here.', 'SSO_BROWSER_MISMATCH');
  try {
    await write(SsoState.remove({ stateHash }, PRESENT));
  } catch (err) {
    if (isConditionFailure(err)) throw stale();
    throw err;
  }
  if (Date.parse(flow.expiresAt) <= Date.now()) throw stale();
  const errorTarget = flow.errorCallbackURL ?? flow.callbackURL;
  try {
    const identity = await completeAuthorization(settings, callback, { ...flow, state }).catch((err: unknown) => {
      if (unreachable(err)) throw new SsoRefusal('provider_unavailable', 'The identity provider cannot be reached.');
      throw err;
    });
    let user = await memberFor(settings, identity, flow.startedBy);
    if (user.status === 'pending') user = await activateOnFirstSignIn(user.id);
    const { token } = await createSession(user.id, userAgent);
    return { redirectTo: flow.callbackURL, token, user };
  } catch (err) {
    if (err instanceof SsoRefusal) return { redirectTo: withError(errorTarget, err.code) };
    throw err;
  }
}

/**
 * The active member a provider's identity signs in: by its stored link, else once by its verified
 * e-mail address (on a served domain), which links it; a super admin only in a sign-in they started
 * while signed in. Anyone else is refused.
 */
async function memberFor(settings: OidcSettings, identity: OidcIdentity, startedBy?: string): Promise<UserItem> {
  const notMember = () => new SsoRefusal('not_a_member', 'No member of this service has this identity.');
  const link = await SsoLink.get({ providerId: OIDC_PROVIDER_ID, subject: identity.subject }, { consistent: true });
  let user: UserItem | undefined;
  if (link) {
    user = await getUser(link.userId, true);
    if (!user) throw notMember();
  } else {
    if (!identity.email || !identity.emailVerified)
      throw new SsoRefusal('email_not_verified', 'The identity provider did not vouch for an e-mail address.');
    const domain = identity.email.split('@').pop() ?? '';
    if (settings.emailDomains.length > 0 && !settings.emailDomains.includes(domain)) throw notMember();
    const claim = await EmailClaim.get({ email: identity.email }, { consistent: true });
    user = claim ? await getUser(claim.userId, true) : undefined;
    if (!claim && env.ssoCreatesMembers && settings.emailDomains.length > 0) user = await newMember(identity);
    if (!user) throw notMember();
    if (user.status === 'deactivated') throw deactivated();
    // An address can be moved (by SCIM, by the provider): it never hands a super admin's account to an
    // identity. A super admin links in a sign-in they started while signed in (docs/sso.md).
    if (user.role === 'super_admin' && startedBy !== user.id)
      throw new SsoRefusal('admin_link_required', 'A super admin links single sign-on while signed in.');
    await linkMember(user.id, identity.subject);
  }
  if (user.status === 'deactivated') throw deactivated();
  return user;
}

/**
 * With `SSO_CREATE_MEMBERS=on` (docs/sso.md): the person the provider vouches for becomes a member, as a
 * super admin's `POST /admin/members` makes one (pending until this first sign-in activates them, no
 * password anyone knows, never a super admin), named by the provider's `name` claim or their address.
 * Only on served domains: without `OIDC_EMAIL_DOMAINS` nobody is created. Two first sign-ins at once:
 * the second finds the first's member.
 */
async function newMember(identity: OidcIdentity): Promise<UserItem | undefined> {
  const email = identity.email!;
  const name = (identity.name?.trim() || email.split('@')[0]!).slice(0, 120);
  try {
    return await createMember({ name, email, password: randomBytes(32).toString('base64url') });
  } catch (err) {
    if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
    const claim = await EmailClaim.get({ email }, { consistent: true });
    return claim ? getUser(claim.userId, true) : undefined;
  }
}

const deactivated = () => new SsoRefusal('account_deactivated', 'This account has been deactivated.');

/** Links a subject to a member, once: a member already linked to another subject is refused. */
async function linkMember(userId: string, subject: string): Promise<void> {
  const linkedAt = new Date().toISOString();
  try {
    await transact([
      SsoLink.put({ providerId: OIDC_PROVIDER_ID, subject, userId, linkedAt }, ABSENT),
      SsoMemberLink.put({ userId, providerId: OIDC_PROVIDER_ID, subject, linkedAt }, ABSENT),
    ]);
  } catch (err) {
    if (isConditionFailure(err))
      throw new SsoRefusal('already_linked', 'This member is linked to another identity at the provider.');
    throw err;
  }
}
