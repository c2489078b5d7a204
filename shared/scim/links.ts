import { failedConditions, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { ScimExternalId, ScimUser, type ScimUserItem, ScimUserSlot, ScimUserTotal } from './entities.ts';
import { ScimError } from './errors.ts';

/**
 * The links of provisioned members, numbered 1…total without gaps (entities.ts): every link and unlink
 * is one transaction with the total, conditioned on what it read, retried when another won the race.
 */

export type LinkFields = Pick<ScimUserItem, 'externalId' | 'givenName' | 'familyName' | 'department'>;

const total = async () => (await ScimUserTotal.get({}, { consistent: true }))?.total ?? 0;

/** The total moved from `from` to `to`, conditioned on `from` (absent counts as 0). */
const moveTotal = (from: number, to: number): TransactItem =>
  ScimUserTotal.put(
    { total: to },
    from === 0
      ? {
          ConditionExpression: 'attribute_not_exists(pk) OR #t = :from',
          ExpressionAttributeNames: { '#t': 'total' },
          ExpressionAttributeValues: { ':from': 0 },
        }
      : {
          ConditionExpression: '#t = :from',
          ExpressionAttributeNames: { '#t': 'total' },
          ExpressionAttributeValues: { ':from': from },
        },
  );

/** Links and unlinks of a provider provisioning in parallel all move the one total: room for a crowd. */
const LINK_RACE = { attempts: 12 };

const externalIdTaken = () => new ScimError(409, 'Another user has this externalId.', 'uniqueness');

export const getLink = (userId: string, consistent = true) => ScimUser.get({ userId }, { consistent });

/** Links a member (409 `uniqueness` when it is linked already, or another link holds the externalId). */
export async function link(userId: string, fields: LinkFields): Promise<ScimUserItem> {
  return retryOnConflict(async () => {
    const n = await total();
    const now = new Date().toISOString();
    const item = ScimUser.item({ userId, position: n + 1, createdAt: now, updatedAt: now, ...defined(fields) });
    const items: TransactItem[] = [
      ScimUser.create(item),
      ScimUserSlot.create({ position: n + 1, userId }),
      moveTotal(n, n + 1),
      ...(fields.externalId ? [ScimExternalId.create({ externalId: fields.externalId, userId })] : []),
    ];
    try {
      await transact(items);
    } catch (err) {
      const failed = failedConditions(err);
      if (failed.includes(0)) throw new ScimError(409, 'A user with this userName exists.', 'uniqueness');
      if (failed.includes(3)) throw externalIdTaken();
      throw err;
    }
    return item;
  }, LINK_RACE);
}

/** Changes what a link keeps; a new `externalId` moves its claim (409 `uniqueness` when another holds it). */
export async function updateLink(before: ScimUserItem, fields: LinkFields): Promise<ScimUserItem> {
  const after = ScimUser.item({ ...before, ...fields, updatedAt: new Date().toISOString() });
  const items: TransactItem[] = [
    ScimUser.change(before, after, {
      ConditionExpression: '#p = :p',
      ExpressionAttributeNames: { '#p': 'position' },
      ExpressionAttributeValues: { ':p': before.position },
    }),
  ];
  if (after.externalId !== before.externalId) {
    if (before.externalId) items.push(ScimExternalId.remove({ externalId: before.externalId }));
    if (after.externalId) items.push(ScimExternalId.create({ externalId: after.externalId, userId: after.userId }));
  }
  try {
    await transact(items);
  } catch (err) {
    if (failedConditions(err).includes(items.length - 1) && after.externalId !== before.externalId && after.externalId)
      throw externalIdTaken();
    throw err;
  }
  return after;
}

/**
 * Ends a member's link, if any (the member stays): the last link moves into its position, in one
 * transaction with the total. Answers whether there was one.
 */
export async function unlink(userId: string): Promise<boolean> {
  return retryOnConflict(async () => {
    const own = await getLink(userId);
    if (!own) return false;
    const n = await total();
    const p = own.position;
    const items: TransactItem[] = [
      ScimUser.remove({ userId }, positionIs(p)),
      moveTotal(n, n - 1),
      ...(own.externalId ? [ScimExternalId.remove({ externalId: own.externalId })] : []),
    ];
    if (p === n) {
      items.push(ScimUserSlot.remove({ position: n }, slotHolds(userId)));
    } else {
      const last = await ScimUserSlot.get({ position: n }, { consistent: true });
      // Another unlink moved the total since it was read: read again, as for a failed condition.
      if (!last)
        throw Object.assign(new Error('SCIM links: the total moved'), { name: 'ConditionalCheckFailedException' });
      items.push(
        ScimUserSlot.put({ position: p, userId: last.userId }, slotHolds(userId)),
        ScimUser.update({ userId: last.userId }, { UpdateExpression: 'SET #p = :p', ...positionIs(n, { ':p': p }) }),
        ScimUserSlot.remove({ position: n }, slotHolds(last.userId)),
      );
    }
    await transact(items);
    return true;
  }, LINK_RACE);
}

const positionIs = (position: number, values: Record<string, unknown> = {}) => ({
  ConditionExpression: '#p = :was',
  ExpressionAttributeNames: { '#p': 'position' },
  ExpressionAttributeValues: { ':was': position, ...values },
});

const slotHolds = (userId: string) => ({
  ConditionExpression: 'userId = :u',
  ExpressionAttributeValues: { ':u': userId },
});

/** The linked members at positions `startIndex`… (1-based), at most `count`, and the total. */
export async function linksPage(startIndex: number, count: number): Promise<{ total: number; userIds: string[] }> {
  const n = await total();
  const last = Math.min(n, startIndex + count - 1);
  if (count === 0 || startIndex > last) return { total: n, userIds: [] };
  const positions = Array.from({ length: last - startIndex + 1 }, (_, i) => startIndex + i);
  const slots = await ScimUserSlot.getMany(positions.map((position) => ({ position })));
  return { total: n, userIds: slots.flatMap((s) => (s ? [s.userId] : [])) };
}

/** The member an `externalId` is claimed by. */
export const byExternalId = async (externalId: string) =>
  (await ScimExternalId.get({ externalId }, { consistent: true }))?.userId;

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
