/**
 * Where the grievance channel spreads its queues and indexes (docs/data-model.md, Grievances), a leaf
 * module of pure derivations: the entity declarations key by them, the domain code queries by them.
 */

/**
 * Grievance notices wait for their delivery batch on a fixed number of queue shards (a notice picks one
 * at random), which keeps the queue off a single partition; a batch reads each shard with one Query.
 */
export const GRIEVANCE_NOTICE_SHARDS = 4;

/**
 * The handling indexes (handling-index.ts): a grievance's next deadline, its next reminder and its
 * finishing time, each sharded by the grievance id over a fixed number of partitions, so that no
 * partition takes every write; a sweep reads each shard with one Query.
 */
export const GRIEVANCE_INDEX_SHARDS = 4;
export const HANDLING_INDEXES = ['DEADLINES', 'REMINDERS', 'FINISHED'] as const;
export type HandlingIndex = (typeof HANDLING_INDEXES)[number];
/** The partition word of a handling index: `GRIEVANCE_DEADLINES`, `GRIEVANCE_REMINDERS`, `GRIEVANCE_FINISHED`. */
export const handlingPartitionWord = (index: HandlingIndex) => `GRIEVANCE_${index}`;
/** The shard of a grievance's entries: a fixed function of its id, so every entry of one grievance is found again. */
export const handlingShard = (grievanceId: string) =>
  [...grievanceId].reduce((sum, c) => sum + c.charCodeAt(0), 0) % GRIEVANCE_INDEX_SHARDS;
