import { tableName } from '../db/client.ts';
import { Migration } from './entities.ts';

/**
 * Whether a migration is done on this deployment: a request path reading an index that a migration
 * backfills reads the older form until it is (expand and contract; docs/deployment.md, "Upgrading and
 * rolling back"). One consistent GetItem; a migration once done stays done, so only that answer is
 * remembered (an optimisation: a cold function asks again).
 */
const done = new Set<string>();

export async function migrationDone(id: string): Promise<boolean> {
  const known = `${tableName()}|${id}`;
  if (done.has(known)) return true;
  const state = await Migration.get({ id }, { consistent: true });
  if (state?.status !== 'done') return false;
  done.add(known);
  return true;
}
