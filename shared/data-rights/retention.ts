import { isConditionFailure, write } from '../db/table.ts';
import { DomainError } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { User } from '../people/entities.ts';
import { startErasure } from './erasure-requests.ts';

/**
 * The people retention (PEOPLE_RETENTION_DAYS, `workplace:peopleRetentionDays`; off by default): once a
 * day, every deactivated person whose deactivation is older than the period, and who is under no legal
 * hold, is erased (erasure.ts). A person deactivated before 0.3.0 has no `deactivatedAt`: the sweep
 * starts their clock the first time it meets them, so nobody is erased sooner than the period after
 * the setting could have been known. One read of the members index (O(people), once a day, in the
 * background).
 */
export async function applyPeopleRetention(days: number | undefined, now = new Date()): Promise<{ started: number }> {
  if (days === undefined) return { started: 0 };
  const deactivated = await User.queryAll({
    index: 'members',
    key: {},
    filter: {
      FilterExpression: '#status = :deactivated',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':deactivated': 'deactivated' },
    },
  });
  let started = 0;
  for (const person of deactivated) {
    if (person.legalHold || person.erasureId) continue;
    if (!person.deactivatedAt) {
      await write(
        User.update(
          { id: person.id },
          {
            UpdateExpression: 'SET deactivatedAt = :now',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deactivatedAt)',
            ExpressionAttributeValues: { ':now': now.toISOString() },
          },
        ),
      ).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err)));
      continue;
    }
    if (now.getTime() - Date.parse(person.deactivatedAt) < days * 86_400_000) continue;
    try {
      await startErasure(person.id, null, now);
      started++;
    } catch (err) {
      // Reactivated, held or erased meanwhile: the next sweep decides again.
      if (!(err instanceof DomainError)) throw err;
      logger.info('people retention: not erased', { reason: err.message });
    }
  }
  return { started };
}
