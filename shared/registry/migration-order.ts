import type { DataMigration, MigrationStep } from '../migrations/migration.ts';

/**
 * The schedules that run migrations (shared/api/background.ts), each over its own part of the order:
 * a function is granted the secrets its bundle reads, so the grievance migrations, which open the
 * grievance channel's seals, run in the grievance area's function and the general one never holds
 * the grievance key.
 */
export const MIGRATION_RUNNERS = ['migrations', 'grievance-migrations'] as const;
export type MigrationRunner = (typeof MIGRATION_RUNNERS)[number];

/**
 * Every migration of this release, in the order they run, and the schedule whose function runs it
 * (docs/deployment.md, "Upgrading and rolling back"). Ids are never reused or renumbered; a release
 * only appends. Each runner walks this one order and waits on the steps of the other, so a migration
 * never runs before an earlier one, and each keeps its one state item (`MIGRATION` / `<id>`). No area
 * code here (so the ids are written again, checked against each runner's list at load): each runner's
 * bundle holds its own migrations' code, and keys, only.
 */
export const MIGRATION_ORDER: readonly { id: string; runBy: MigrationRunner }[] = [
  { id: '0001-stored-forms', runBy: 'migrations' },
  { id: '0002-grievance-handling-records', runBy: 'grievance-migrations' },
  { id: '0003-grievance-reader-refs', runBy: 'grievance-migrations' },
  { id: '0004-grievance-totals-names', runBy: 'grievance-migrations' },
  // It opens 0.2.0's grievance previews (the grievance key) to seal them under the notification key.
  { id: '0005-notifications-sealed', runBy: 'grievance-migrations' },
  { id: '0006-grievance-notices-sealed', runBy: 'grievance-migrations' },
  { id: '0007-team-memberships', runBy: 'migrations' },
  { id: '0008-directory-attribute-names', runBy: 'migrations' },
  { id: '0009-avatars-keyed-tag', runBy: 'migrations' },
  { id: '0010-window-indexes', runBy: 'migrations' },
  { id: '0012-following-lists', runBy: 'migrations' },
  { id: '0013-directory-rows', runBy: 'migrations' },
  { id: '0014-directory-shards-removed', runBy: 'migrations' },
];

/**
 * One runner's steps: its own migrations, and the others' as steps it waits on, in the one order.
 * Throws at load when its list and the order disagree.
 */
export function stepsOf(runner: MigrationRunner, own: readonly DataMigration[]): MigrationStep[] {
  const byId = new Map(own.map((m) => [m.id, m]));
  const steps = MIGRATION_ORDER.map(({ id, runBy }): MigrationStep => {
    if (runBy !== runner) return { id, runBy };
    const m = byId.get(id);
    if (!m) throw new Error(`migration ${id}: ordered for ${runner}, which does not declare it`);
    byId.delete(id);
    return m;
  });
  if (byId.size) throw new Error(`${runner} declares ${[...byId.keys()].join(', ')}: not ordered for it`);
  return steps;
}
