import { addToCounter } from '../db/counters.ts';
import { newId } from '../db/ids.ts';
import { credentialsKey, emailKey, featuredIndex, membersIndex, roleIndex, teamKey, userKey } from '../db/keys.ts';
import { failedConditions, getItem, isConditionFailure, queryAll, type TransactItem, transact, updateItem } from '../db/table.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import { endSessions, revokeForDeactivation } from '../auth/sessions.ts';
import { blankProfile, getUser, getUsers, type UserItem } from './users.ts';

/** Whether a person counts in team sizes and report counts (decisions 8: active and pending people). */
export const countsAsMember = (status: UserItem['status']) => status !== 'deactivated';

export interface NewMember {
  name: string;
  email: string;
  password: string;
  title?: string;
  managerId?: string | null;
  department?: UserItem['department'];
  teamId?: string | null;
  role?: UserItem['role'];
}

/** Index attributes every profile carries (see keys.ts). */
export function profileIndexAttributes(u: Pick<UserItem, 'id' | 'role' | 'joinedAt' | 'isFeatured' | 'featuredAt'>) {
  return {
    [`${membersIndex.index}pk`]: membersIndex.pk,
    [`${membersIndex.index}sk`]: membersIndex.sk(u.joinedAt, u.id),
    [`${roleIndex.index}pk`]: roleIndex.pk(u.role),
    [`${roleIndex.index}sk`]: roleIndex.sk(u.id),
    ...(u.isFeatured && u.featuredAt
      ? { [`${featuredIndex.index}pk`]: featuredIndex.pk, [`${featuredIndex.index}sk`]: featuredIndex.sk(u.featuredAt, u.id) }
      : {}),
  };
}

/**
 * Creates a login and its profile in one transaction: the e-mail claim (409 when taken), the
 * profile, the credentials, and the counters of the manager and team it names (400 when missing).
 */
export async function createMember(input: NewMember, extra: Partial<UserItem> = {}): Promise<UserItem> {
  const id = newId();
  const email = input.email.trim().toLowerCase();
  const now = new Date().toISOString();
  const managerId = input.managerId || null;
  const teamId = input.teamId || null;
  const user = {
    ...userKey(id),
    entity: 'User',
    ...blankProfile(),
    id,
    email,
    name: input.name.trim(),
    role: input.role ?? 'member',
    status: 'pending',
    title: input.title ?? '',
    department: input.department ?? '',
    managerId,
    teamId,
    joinedAt: now,
    ...extra,
  } as UserItem;
  Object.assign(user, profileIndexAttributes(user));
  const items: TransactItem[] = [
    { Put: { Item: { ...emailKey(email), entity: 'EmailClaim', userId: id }, ConditionExpression: 'attribute_not_exists(pk)' } } as TransactItem,
    { Put: { Item: user, ConditionExpression: 'attribute_not_exists(pk)' } } as TransactItem,
    { Put: { Item: { ...credentialsKey(id), entity: 'Credentials', passwordHash: await hashPassword(input.password) } } } as TransactItem,
  ];
  if (managerId) items.push(addToCounter(userKey(managerId), 'reportCount', 1, { mustExist: true }));
  if (teamId) items.push(addToCounter(teamKey(teamId), 'memberCount', 1, { mustExist: true }));
  try {
    await transact(items);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const failed = failedConditions(err);
    if (failed.includes(0)) throw conflict('This e-mail address is already in use.');
    if (managerId && failed.includes(3)) throw badRequest(['managerId: no such person']);
    throw badRequest(['teamId: no such team']);
  }
  return user;
}

export async function requireUser(userId: string): Promise<UserItem> {
  const user = await getUser(userId, true);
  if (!user) throw notFound('No such person.');
  return user;
}

/** Every account (an unpaged admin list, bounded by the company's size), newest first. */
export async function listMembers(): Promise<{ users: UserItem[]; managers: Map<string, UserItem> }> {
  const users = await queryAll<UserItem>({ index: membersIndex.index, pk: membersIndex.pk, forward: false });
  const byId = new Map(users.map((u) => [u.id, u]));
  const missing = users.map((u) => u.managerId).filter((m): m is string => !!m && !byId.has(m));
  const managers = new Map([...byId, ...(await getUsers(missing))]);
  return { users, managers };
}

export function toAdminMember(u: UserItem, manager: UserItem | undefined) {
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
 * Activates or deactivates (spec 3.6). Deactivation revokes every session; team sizes and report
 * counts follow the change in the same transaction as the status, guarded by the status read.
 */
export async function setStatus(actorId: string, userId: string, status: 'active' | 'deactivated'): Promise<UserItem> {
  if (actorId === userId && status === 'deactivated') throw badRequest('You cannot deactivate your own account.');
  for (let attempt = 0; attempt < 5; attempt++) {
    const user = await requireUser(userId);
    if (user.status === status) return user;
    const delta = countsAsMember(status) === countsAsMember(user.status) ? 0 : countsAsMember(status) ? 1 : -1;
    const items: TransactItem[] = [
      {
        Update: {
          Key: userKey(userId),
          UpdateExpression: 'SET #s = :new',
          ConditionExpression: '#s = :old',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':new': status, ':old': user.status },
        },
      } as TransactItem,
    ];
    if (delta && user.managerId) items.push(addToCounter(userKey(user.managerId), 'reportCount', delta));
    if (delta && user.teamId) items.push(addToCounter(teamKey(user.teamId), 'memberCount', delta));
    try {
      await transact(items);
    } catch (err) {
      if (isConditionFailure(err)) continue; // changed meanwhile: read again
      throw err;
    }
    if (status === 'deactivated') await revokeForDeactivation(userId);
    return { ...user, status };
  }
  throw conflict('The account changed while this request ran. Try again.');
}

export async function setRole(actorId: string, userId: string, role: UserItem['role']): Promise<UserItem> {
  const user = await requireUser(userId);
  if (user.role === role) return user;
  if (actorId === userId && role === 'member') {
    const admins = await queryAll<UserItem>({ index: roleIndex.index, pk: roleIndex.pk('super_admin') });
    if (!admins.some((a) => a.id !== userId && a.status === 'active')) {
      throw badRequest('You are the last active super admin: promote somebody else first.');
    }
  }
  const updated = await updateItem({
    Key: userKey(userId),
    UpdateExpression: 'SET #r = :r, #gpk = :gpk',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#r': 'role', '#gpk': `${roleIndex.index}pk` },
    ExpressionAttributeValues: { ':r': role, ':gpk': roleIndex.pk(role) },
  });
  return updated as UserItem;
}

export async function setFeatured(userId: string, featured: boolean, note: string | undefined): Promise<UserItem> {
  const user = await requireUser(userId);
  const featuredAt = featured ? (user.isFeatured && user.featuredAt ? user.featuredAt : new Date().toISOString()) : null;
  const names = { '#gpk': `${featuredIndex.index}pk`, '#gsk': `${featuredIndex.index}sk` };
  const updated = featured
    ? await updateItem({
        Key: userKey(userId),
        UpdateExpression: 'SET isFeatured = :t, featuredNote = :n, featuredAt = :at, #gpk = :gpk, #gsk = :gsk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':t': true,
          ':n': note ?? (user.isFeatured ? user.featuredNote : ''),
          ':at': featuredAt,
          ':gpk': featuredIndex.pk,
          ':gsk': featuredIndex.sk(featuredAt!, userId),
        },
      })
    : await updateItem({
        Key: userKey(userId),
        UpdateExpression: 'SET isFeatured = :f, featuredNote = :n, featuredAt = :null REMOVE #gpk, #gsk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':f': false, ':n': '', ':null': null },
      });
  return updated as UserItem;
}

/** A super admin sets a password: the person is signed out everywhere unless it is the caller's own. */
export async function adminSetPassword(actorId: string, userId: string, password: string): Promise<UserItem> {
  const user = await requireUser(userId);
  await updateItem({
    Key: credentialsKey(userId),
    UpdateExpression: 'SET passwordHash = :h, entity = :e',
    ExpressionAttributeValues: { ':h': await hashPassword(password), ':e': 'Credentials' },
  });
  if (actorId !== userId) await endSessions(userId);
  return user;
}

/** Checks that a manager or team a profile names exists (400 otherwise). */
export async function assertExists(kind: 'managerId' | 'teamId', id: string): Promise<void> {
  const found = await getItem(kind === 'managerId' ? userKey(id) : teamKey(id));
  if (!found) throw badRequest([`${kind}: no such ${kind === 'managerId' ? 'person' : 'team'}`]);
}

