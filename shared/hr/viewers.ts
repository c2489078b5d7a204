import type { UserItem } from '../people/entities.ts';

/**
 * Who may see everybody's attendance and whose leave requests are routed where: super
 * admins and reporting managers (people with at least one report, read fresh from the caller's
 * profile, which every request reads anyway).
 */
export const isReportingManager = (u: Pick<UserItem, 'reportCount'>) => (u.reportCount ?? 0) >= 1;
export const canViewAll = (u: Pick<UserItem, 'role' | 'reportCount'>) =>
  u.role === 'super_admin' || isReportingManager(u);
