import { randomBytes } from 'node:crypto';
import { EmailClaim } from '../auth/entities.ts';
import { breakGlassEmail } from '../config/break-glass.ts';
import { write } from '../db/table.ts';
import { DomainError } from '../errors.ts';
import { changeSignInAddress, createMember, setStatus } from '../people/members.ts';
import { Department } from '../people/profile-fields.ts';
import { updateProfile } from '../people/profile-update.ts';
import { getUser, getUsers, type UserItem } from '../people/users.ts';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from './discovery.ts';
import { ScimEndedLink, ScimUser, type ScimUserItem } from './entities.ts';
import { ScimError } from './errors.ts';
import type { Equalities } from './filter.ts';
import { byExternalId, getLink, type LinkFields, link, linksPage, unlink, updateLink } from './links.ts';
import { applyPatch, displayNameOf, signInAddressOf, type UserAttributes } from './user-attributes.ts';

/**
 * SCIM Users (RFC 7644) as members (docs/scim.md). Every change goes through the people area's own
 * functions, as a super admin's does (counters, directory, org chart, change feed, sessions), made by
 * no person (`actorId` absent, as the background's changes are). A User is a member with a link
 * (links.ts); super admin is never granted here.
 */

export const USER_FILTERS = ['userName', 'externalId'] as const;

/** The User as SCIM shows it. */
export function toScimUser(user: UserItem, own: ScimUserItem, base: string) {
  return {
    schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
    id: user.id,
    ...(own.externalId ? { externalId: own.externalId } : {}),
    userName: user.email,
    name: {
      formatted: user.name,
      ...(own.givenName ? { givenName: own.givenName } : {}),
      ...(own.familyName ? { familyName: own.familyName } : {}),
    },
    displayName: user.name,
    ...(user.title ? { title: user.title } : {}),
    active: user.status !== 'deactivated',
    emails: [{ value: user.email, type: 'work', primary: true }],
    [ENTERPRISE_USER_SCHEMA]: {
      ...((own.department ?? user.department) ? { department: own.department ?? user.department } : {}),
      ...(user.managerId ? { manager: { value: user.managerId } } : {}),
    },
    meta: {
      resourceType: 'User',
      created: own.createdAt,
      lastModified: own.updatedAt,
      location: `${base}/Users/${user.id}`,
    },
  };
}

/** The User's attributes now, which a PATCH's operations apply to. */
function attributesOf(user: UserItem, own: ScimUserItem): UserAttributes {
  return {
    userName: user.email,
    externalId: own.externalId,
    active: user.status !== 'deactivated',
    displayName: user.name,
    givenName: own.givenName,
    familyName: own.familyName,
    title: user.title,
    department: own.department ?? (user.department || undefined),
    manager: user.managerId,
  };
}

/**
 * The profile's department from the provider's: its name matched case-insensitively, blanks and
 * punctuation read as `_` ("Business Development" → business_development); an unknown one is no
 * department (the provider's value is kept on the link and shown back to it).
 */
export function departmentOf(value: string | undefined): UserItem['department'] {
  const key = (value ?? '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  const known = Department.safeParse(key);
  return known.success ? known.data : '';
}

const linkFields = (a: UserAttributes): LinkFields => ({
  externalId: a.externalId?.trim() || undefined,
  givenName: a.givenName?.trim() || undefined,
  familyName: a.familyName?.trim() || undefined,
  department: a.department?.trim() || undefined,
});

const LIMIT = 120;
function profileOf(a: UserAttributes) {
  const name = displayNameOf(a);
  const title = (a.title ?? '').trim();
  if (name.length > LIMIT) throw new ScimError(400, `displayName must be at most ${LIMIT} characters.`, 'invalidValue');
  if (title.length > LIMIT) throw new ScimError(400, `title must be at most ${LIMIT} characters.`, 'invalidValue');
  return { name, title, department: departmentOf(a.department), managerId: a.manager };
}

const taken = (err: unknown) => {
  // Another member's address (or another request's claim meanwhile).
  if (err instanceof DomainError && err.kind === 'conflict')
    throw new ScimError(409, 'A user with this userName exists.', 'uniqueness');
  throw err;
};

/**
 * Why the provisioning channel may not take this account away, if it may not: a super admin's, or the
 * break-glass account (docs/sso.md). A leaked token or a misbehaving provider must not lock the
 * administrators out; an administrator changes these by hand.
 */
function protectedAs(user: UserItem): string | undefined {
  if (user.role === 'super_admin') return 'a super admin';
  const glass = breakGlassEmail();
  if (glass && user.email === glass) return 'the break-glass account';
  return undefined;
}

/** A refusal to touch an administrator: SCIM's error naming why, recorded in the audit log. */
const untouchable = (status: 400 | 403, user: UserItem, what: string, why: string) =>
  new ScimError(
    status,
    `${what} is ${why}: SCIM does not deactivate, delete, unlink or rename it; a super admin changes it by hand.`,
    status === 400 ? 'mutability' : undefined,
    { targetId: user.id },
  );

/**
 * Refuses, before anything is written, what SCIM may not do to this member with these attributes:
 * rename or deactivate an administrator (protectedAs), or move the break-glass address to anyone.
 */
function guard(user: UserItem, a: UserAttributes): void {
  const address = signInAddressOf(a);
  const why = protectedAs(user);
  if (why && address !== user.email) throw untouchable(400, user, 'This user', why);
  if (why && a.active === false && user.status !== 'deactivated') throw untouchable(400, user, 'This user', why);
  const glass = breakGlassEmail();
  if (glass && address !== user.email && address === glass)
    // Password sign-in may be off for everyone but this address (docs/sso.md): only a setting moves it.
    throw new ScimError(400, 'The break-glass account’s address does not change through SCIM.', 'mutability', {
      targetId: user.id,
    });
}

/**
 * The member's address, profile and status made what the attributes say (nothing written where
 * nothing differs; `guard` has passed). A new `userName` moves the sign-in address (the provider
 * renamed the person).
 */
async function applyToMember(user: UserItem, a: UserAttributes): Promise<UserItem> {
  const address = signInAddressOf(a);
  const p = profileOf(a);
  let next = address === user.email ? user : await changeSignInAddress(null, user.id, address).catch(taken);
  if (
    p.name !== user.name ||
    p.title !== user.title ||
    p.department !== user.department ||
    (p.managerId ?? null) !== (user.managerId ?? null)
  )
    next = await updateProfile(user.id, p, { actorId: null, allowJoinedOn: false });
  const deactivated = next.status === 'deactivated';
  if (a.active === deactivated) next = await setStatus(null, user.id, a.active ? 'active' : 'deactivated');
  return next;
}

const noSuchUser = () => new ScimError(404, 'No such User.');

async function linkedMember(id: string): Promise<{ user: UserItem; own: ScimUserItem }> {
  const [own, user] = await Promise.all([getLink(id), getUser(id, true)]);
  if (!own || !user) throw noSuchUser();
  return { user, own };
}

/**
 * Creates the User: a new member (pending until the first sign-in; no password anyone knows, so they
 * sign in with single sign-on or a reset), or links the member who has this address and no link yet
 * (a member a super admin created, or whose User was deleted with the same `externalId`). A deleted
 * User's address with another `externalId` is a new person (recycled). 409 `uniqueness` when linked.
 */
export async function createUser(a: UserAttributes) {
  const email = signInAddressOf(a);
  const p = profileOf(a);
  const claim = await EmailClaim.get({ email }, { consistent: true });
  const former = claim ? await getUser(claim.userId, true) : undefined;
  if (claim && !former) throw new ScimError(409, 'A user with this userName exists.', 'uniqueness');
  if (former && (await getLink(former.id))) throw new ScimError(409, 'A user with this userName exists.', 'uniqueness');
  if (former && (await recycled(former, linkFields(a).externalId))) {
    // A recycled address (a new hire given a former colleague's): the former holder keeps their account,
    // deactivated, under a retired address, and the new person is a new member.
    await changeSignInAddress(null, former.id, retiredAddress(former.id)).catch(taken);
  } else if (former) {
    guard(former, a);
    const own = await link(former.id, linkFields(a));
    return { user: await applyToMember(former, a), own };
  }
  // A conflict: another request created the address meanwhile (the provider's retry of this one).
  const user = await createMember({ ...p, email, password: randomBytes(32).toString('base64url') }, {}, null).catch(
    taken,
  );
  const own = await link(user.id, linkFields(a));
  return { user: a.active ? user : await setStatus(null, user.id, 'deactivated'), own };
}

export const getScimUser = linkedMember;

/** `PUT`: the User becomes what the attributes say (those left out are cleared). */
export async function replaceUser(id: string, a: UserAttributes) {
  return writeUser(await linkedMember(id), a);
}

/** The member and their link, as read, made what the attributes say. */
async function writeUser({ user, own }: { user: UserItem; own: ScimUserItem }, a: UserAttributes) {
  guard(user, a);
  const next = await applyToMember(user, a);
  return { user: next, own: await updateLink(own, linkFields(a)) };
}

/** `PATCH`: the operations applied to the User's attributes, then written as a `PUT` of them. */
export async function patchUser(id: string, body: Record<string, unknown>) {
  const read = await linkedMember(id);
  return writeUser(read, applyPatch(attributesOf(read.user, read.own), body));
}

/** `DELETE`: the member is deactivated (sessions and push end) and their User ends (a later GET is 404). */
export async function deleteUser(id: string): Promise<void> {
  const { user, own } = await linkedMember(id);
  const why = protectedAs(user);
  if (why) throw untouchable(403, user, 'This user', why);
  if (user.status !== 'deactivated') await setStatus(null, id, 'deactivated');
  // Kept before the link goes (a retried DELETE writes it again): who this was, for a later POST.
  await write(
    ScimEndedLink.put({
      userId: id,
      ...(own.externalId ? { externalId: own.externalId } : {}),
      endedAt: new Date().toISOString(),
    }),
  );
  await unlink(id);
}

/**
 * Whether a `POST /Users` for the address of `user` (unlinked) names somebody else: their link was
 * ended by a SCIM `DELETE` and the provider's `externalId` now differs from that link's (none where it
 * had one, or one where it had none). A member never linked (made by hand) is adopted instead.
 */
async function recycled(user: UserItem, externalId: string | undefined): Promise<boolean> {
  if (user.status !== 'deactivated' || protectedAs(user)) return false;
  const ended = await ScimEndedLink.get({ userId: user.id }, { consistent: true });
  return !!ended && (ended.externalId ?? null) !== (externalId ?? null);
}

/** The sign-in address a former holder keeps once theirs is given to a new person: never deliverable. */
const retiredAddress = (userId: string) => `retired-${userId.toLowerCase()}@retired.invalid`;

/**
 * A page of Users: by exact values (`userName`, `externalId`: one read each) when filtered, else the
 * links at `startIndex`… (links.ts). `totalResults` is exact.
 */
export async function listUsers(filter: Equalities, startIndex: number, count: number) {
  let total: number;
  let ids: string[];
  if (filter.size > 0) {
    const candidates = await Promise.all(
      [...filter].map(async ([attribute, value]) =>
        attribute === 'userName'
          ? (await EmailClaim.get({ email: value.trim().toLowerCase() }, { consistent: true }))?.userId
          : byExternalId(value),
      ),
    );
    const id = candidates[0];
    const matched = id && candidates.every((c) => c === id) && (await getLink(id)) ? [id] : [];
    total = matched.length;
    ids = matched.slice(startIndex - 1, startIndex - 1 + count);
  } else {
    ({ total, userIds: ids } = await linksPage(startIndex, count));
  }
  const [links, users] = await Promise.all([ScimUser.getMany(ids.map((userId) => ({ userId }))), getUsers(ids)]);
  const found = ids.flatMap((id, i) => {
    const user = users.get(id);
    const own = links[i];
    return user && own ? [{ user, own }] : [];
  });
  return { total, found };
}
