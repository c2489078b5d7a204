/**
 * The index 0.4.0 adds to follows (gsi1, who follows a person; shared/feed/entities.ts): one migration
 * (index.ts) writes it on the follows stored before, and the `following-lists` consumer builds each such
 * follow's list when it sees the follow indexed (shared/feed/following-lists.ts). Until the migration is
 * done, `GET /posts?following=true` reads the followed people's own lists, one Query each (list-posts.ts).
 */
export const FOLLOWING_LISTS_MIGRATION = '0012-following-lists';
