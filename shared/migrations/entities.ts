import { type EntityItem, entity, shape } from '../db/entity.ts';

export type MigrationStatus = 'pending' | 'running' | 'paused' | 'failed' | 'done';

/** How far one migration got (runner.ts): recorded after every page, so a crash resumes at the last one. */
type MigrationStateFields = {
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
};

/** One migration's recorded state, under its id: one partition, a few items. */
export const Migration = entity({
  name: 'Migration',
  fields: shape<MigrationStateFields>(),
  key: { pk: ['MIGRATION'], sk: ['id'] },
});
export type MigrationStateItem = EntityItem<typeof Migration>;
