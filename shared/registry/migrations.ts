import { type DataMigration, runsHere } from '../migrations/migration.ts';
import { generalSteps } from './general-migrations.ts';
import { grievanceSteps } from './grievance-migrations.ts';
import { MIGRATION_ORDER } from './migration-order.ts';

export { legacyForms } from './general-migrations.ts';

/**
 * Every migration of this release with its code, in the order they run (migration-order.ts): for the
 * composition roots that hold every key, the local runtime, `npm run migrations` and the tests. Run
 * in one process they walk the same order and record the same states as the two deployed functions.
 * Once a migration is done on every deployment, the code that reads the form it removed may go (the
 * contract step), never before.
 */
export const migrations: readonly DataMigration[] = MIGRATION_ORDER.map(({ id }) => {
  const m = [...generalSteps, ...grievanceSteps].filter(runsHere).find((s) => s.id === id);
  if (!m) throw new Error(`migration ${id}: declared by no runner`);
  return m;
});

export const migrationById = (id: string) => migrations.find((m) => m.id === id);
