import { Credentials, EmailClaim } from '../auth/entities.ts';
import { hashPassword } from '../auth/passwords.ts';
import { revokeForDeactivation } from '../auth/sessions.ts';
import { newId } from '../db/ids.ts';
import { failedConditions, isConditionFailure, type TransactItem, transact } from '../db/table.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { changePerson } from './change-person.ts';
import { newPersonWrites } from './derived-from-person.ts';
import { directoryShardsLive } from './directory-migration-state.ts';
import { syncTerms } from './directory-terms.ts';
import { Team, User, type UserFields, type UserItem } from './entities.ts';
import { newestFirst, type RosterPerson, roster } from './roster.ts';
import { blankProfile, getUser } from './users.ts';

export interface NewMember {
  name: string;
  email: string;
  password: string;
  title?: string;
  managerId?: string | null;
  department?: UserFields['department'];
  teamId?: string | null;
  role?: UserFields['role'];
}

/**
 * Creates a login and its profile in one transaction: the e-mail claim (409 when taken), the
 * profile with its directory entry, the credentials, and the counters of the manager and team it
 * names (400 when missing).
 */
export async function createMember(
  input: NewMember,
  extra: Partial<UserFields> = {},
  actorId: string | null = null,
): Promise<UserItem> {
  const id = newId();
  const email = input.email.trim().toLowerCase();
  const user: UserFields = {
    ...blankProfile(),
    id,
    email,
    name: input.name.trim(),
    role: input.role ?? 'member',
    status: 'pending',
    title: (input.title ?? '').trim(),
    department: input.department ?? '',
    managerId: input.managerId || null,
    teamId: input.teamId || null,
    joinedAt: new Date().toISOString(),
    ...(actorId ? { actorId } : {}),
    ...extra,
  };
  const { item, derived } = newPersonWrites(user, { actorId, shards: await directoryShardsLive() });
  const items: TransactItem[] = [
    // First: a failed condition 0 is the e-mail address taken (409).
    EmailClaim.create({ email, userId: id }),
    User.create(item),
    Credentials.put({
      userId: id,
      passwordHash: await hashPassword(input.password),
      ...(actorId ? { actorId } : {}),
    }),
    ...derived,
  ];
  try {
    await transact(items);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const failed = failedConditions(err);
    const failedKeys = new Set(failed.map((i) => pkOf(items[i])));
    if (failed.includes(0)) throw conflict('This e-mail address is already in use.');
    if (user.managerId && failedKeys.has(User.key({ id: user.managerId }).pk))
      throw invalid(['managerId: no such person']);
    if (user.teamId && failedKeys.has(Team.key({ id: user.teamId }).pk)) throw invalid(['teamId: no such team']);
    throw err;
  }
  await syncTerms(id);
  return item;
}

/** The partition key a transaction entry addresses. */
const pkOf = (item: TransactItem): string | undefined =>
  (item.Put?.Item?.pk as string | undefined) ??
  (item.Update?.Key?.pk as string | undefined) ??
  (item.ConditionCheck?.Key?.pk as string | undefined) ??
  (item.Delete?.Key?.pk as string | undefined);

export async function requireUser(userId: string): Promise<UserItem> {
  const user = await getUser(userId, true);
  if (!user) throw notFound('No such person.');
  return user;
}

/**
 * Every account (the whole list the specification answers), newest first: from the roster document
 * (roster.ts), so its DynamoDB reads are the roster's pending changes only, whatever the company's size.
 */
export async function listMembers() {
  const people = await roster();
  const byId = new Map(people.map((p) => [p.id, p]));
  return newestFirst(people).map((p) => toAdminMember(p, p.managerId ? byId.get(p.managerId) : undefined));
}

type MemberSource = Pick<RosterPerson, 'id' | 'name' | 'email' | 'role' | 'status' | 'joinedAt'> &
  Partial<Pick<UserItem, 'image' | 'title' | 'managerId' | 'isFeatured' | 'featuredNote'>>;

export function toAdminMember(u: MemberSource, manager: Pick<UserItem, 'name'> | undefined) {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    image: u.image ?? null,
    title: u.title ?? '',
    role: u.role,
    status: u.status,
    managerId: u.managerId ?? null,
    managerName: manager?.name ?? null,
    joinedAt: u.joinedAt,
    isFeatured: !!u.isFeatured,
    featuredNote: u.featuredNote ?? '',
  };
}

/**
 * Activates or deactivates (`actorId` null: the identity provider, through SCIM). The directory entry, facets, team size and report count move
 * in the same transaction as the status; deactivation then revokes every session.
 */
export async function setStatus(
  actorId: string | null,
  userId: string,
  status: 'active' | 'deactivated',
): Promise<UserItem> {
  if (actorId === userId && status === 'deactivated') throw invalid('You cannot deactivate your own account.');
  let keeper: TransactItem[] = [];
  const user = await changePerson(
    userId,
    async (u) => {
      if (u.erasureId) throw conflict('This account is being erased and cannot change any more.');
      if (u.status === status) return u;
      keeper = status === 'deactivated' ? await keepAnAdmin(u) : [];
      return { ...u, status, deactivatedAt: status === 'deactivated' ? new Date().toISOString() : undefined };
    },
    { actorId, alongside: () => keeper },
  );
  if (status === 'deactivated') await revokeForDeactivation(userId);
  return user;
}

/**
 * Moves a person's sign-in address (the identity provider renamed them, through SCIM): the profile,
 * the claim of the new address and the release of the old one in one transaction; 409 when the new
 * address is somebody else's. Sessions, the SSO link and everything keyed by the person's id stay.
 */
export async function changeSignInAddress(actorId: string | null, userId: string, address: string): Promise<UserItem> {
  const email = address.trim().toLowerCase();
  return changePerson(
    userId,
    async (u) => {
      if (u.email === email) return u;
      if (u.erasureId) throw conflict('This account is being erased and cannot change any more.');
      const claim = await EmailClaim.get({ email }, { consistent: true });
      if (claim && claim.userId !== userId) throw conflict('This e-mail address is already in use.');
      return { ...u, email };
    },
    {
      actorId,
      alongside: (before, after) => [
        // Released only by its holder (or already gone).
        EmailClaim.remove(
          { email: before.email },
          {
            ConditionExpression: 'attribute_not_exists(pk) OR userId = :me',
            ExpressionAttributeValues: { ':me': userId },
          },
        ),
        EmailClaim.create({ email: after.email, userId }),
      ],
    },
  );
}

export async function setRole(actorId: string, userId: string, role: UserFields['role']): Promise<UserItem> {
  let keeper: TransactItem[] = [];
  return changePerson(
    userId,
    async (u) => {
      keeper = role === 'member' ? await keepAnAdmin(u) : [];
      return { ...u, role };
    },
    { actorId, alongside: () => keeper },
  );
}

/**
 * What a change that takes an active super admin away (deactivation, demotion) carries, by any path
 * (an admin, SCIM, anything): a check in its transaction that another super admin is active, so the
 * service never loses its last one, and two such changes at once cannot both pass (each checks the
 * other). Nothing for anyone else.
 */
async function keepAnAdmin(u: UserItem): Promise<TransactItem[]> {
  if (u.role !== 'super_admin' || u.status !== 'active') return [];
  const admins = await User.queryAll({ index: 'byRole', key: { role: 'super_admin' } });
  const other = admins.find((a) => a.id !== u.id && a.status === 'active');
  if (!other) throw invalid('This is the last active super admin: promote somebody else first.', 'LAST_SUPER_ADMIN');
  return [
    User.check(
      { id: other.id },
      {
        ConditionExpression: '#role = :admin AND #status = :active',
        ExpressionAttributeNames: { '#role': 'role', '#status': 'status' },
        ExpressionAttributeValues: { ':admin': 'super_admin', ':active': 'active' },
      },
    ),
  ];
}

/** Pins a person to Top Contributors (keeping the original pin time when already pinned) or unpins them. */
export async function setFeatured(
  actorId: string,
  userId: string,
  featured: boolean,
  note: string | undefined,
): Promise<UserItem> {
  return changePerson(
    userId,
    (u) =>
      featured
        ? {
            ...u,
            isFeatured: true,
            featuredAt: u.isFeatured && u.featuredAt ? u.featuredAt : new Date().toISOString(),
            featuredNote: note ?? (u.isFeatured ? u.featuredNote : ''),
          }
        : { ...u, isFeatured: false, featuredAt: null, featuredNote: '' },
    { actorId },
  );
}
