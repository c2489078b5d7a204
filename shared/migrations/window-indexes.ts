/**
 * The sparse indexes 0.4.0 adds for the time-bounded lists (decisions §4; CHANGELOG.md): a long meeting
 * (over 6 hours) and its seats by their end in gsi6 / gsi7 (shared/calendar/meetings/entities.ts), a
 * leave request that ends more than 31 days after it was made by its `toDate` in gsi6 / gsi7
 * (shared/hr/entities.ts). One migration (index.ts) writes them on the items stored before, in one walk
 * of the table; until it is done, `GET /meetings` and `GET /leave/requests` read those items the older
 * way (shared/calendar/meetings/list.ts, shared/hr/leave.ts).
 */
export const WINDOW_INDEXES_MIGRATION = '0010-window-indexes';
