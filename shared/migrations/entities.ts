import { entity } from '../db/entity.ts';
import { migrationKey } from '../db/keys.ts';

export type MigrationStatus = 'pending' | 'running' | 'paused' | 'failed' | 'done';

/** How far one migration got (runner.ts): recorded after every page, so a crash resumes at the last one. */
export interface MigrationStateItem {
  pk: string;
  sk: string;
  entity: 'Migration';
  id: string;
  description: string;
  status: MigrationStatus;
  /** The scan position after the last finished page (DynamoDB's LastEvaluatedKey); absent before the first. */
  cursor?: Record<string, unknown> | null;
  /** Items read and items changed so far. */
  scanned: number;
  changed: number;
  startedAt?: string;
  updatedAt: string;
  finishedAt?: string | null;
  /** The last failure, kept until the migration finishes. */
  error?: string | null;
  /** Who runs it now and until when: two runners (a deploy hook and the schedule) never page it at once. */
  leaseOwner?: string | null;
  leaseUntil?: string | null;
  /** Set by an operator: the runner leaves it (and every later one) until resumed. */
  paused?: boolean;
}

/** One migration's recorded state, under its id. */
export const Migration = entity<MigrationStateItem, [migrationId: string]>({
  name: 'Migration',
  key: migrationKey,
  keyOf: (m) => [m.id],
});
