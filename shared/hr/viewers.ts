import { User, type UserItem } from '../people/entities.ts';

/**
 * Who may see everybody's attendance and whose leave requests are routed where: super
 * admins and reporting managers (people with at least one report, read fresh from the caller's
 * profile, which every request reads anyway).
 */
export const isReportingManager = (u: Pick<UserItem, 'reportCount'>) => (u.reportCount ?? 0) >= 1;
export const canViewAll = (u: Pick<UserItem, 'role' | 'reportCount'>) =>
  u.role === 'super_admin' || isReportingManager(u);

/**
 * Every active person: one Query of the members index filtered on status. Its cost is the company's
 * size, which is what the answers that use it list (today's attendance, the employee and manager lists).
 */
export async function activePeople(): Promise<UserItem[]> {
  const people = await User.queryAll({
    index: 'members',
    key: {},
    filter: {
      FilterExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':active': 'active' },
    },
  });
  return people.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
