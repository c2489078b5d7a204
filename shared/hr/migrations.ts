/**
 * The HR area's stored-form changes (CHANGELOG.md). 0.4.0 puts a leave request that ends more than
 * LEAVE_AHEAD_DAYS after it was made on the sparse ahead indexes gsi6 / gsi7 (entities.ts);
 * `0011-leave-ahead-index` (shared/migrations/index.ts) backfills them on the requests stored before,
 * and `GET /leave/requests` reads the older way until it is done (leave.ts).
 */
export const LEAVE_AHEAD_INDEX_MIGRATION = '0011-leave-ahead-index';
