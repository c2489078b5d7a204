/**
 * The meetings' stored-form changes (CHANGELOG.md). 0.4.0 indexes a long meeting (and its seats) by its
 * end in the sparse gsi6 / gsi7 (entities.ts); `0010-meetings-long-index` (shared/migrations/index.ts)
 * backfills them on the items stored before, and `GET /meetings` reads the older by-end index until it
 * is done (list.ts).
 */
export const MEETING_LONG_INDEX_MIGRATION = '0010-meetings-long-index';
