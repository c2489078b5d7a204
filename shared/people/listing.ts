/**
 * Pure derivations of a person that the people area's declarations (entities.ts) and its domain code
 * share. A leaf: it imports nothing of the area.
 */

/** Listed in the directory, the org chart and the facets, and counted in team sizes and report counts. */
export const isListed = (u: { status: string }) => u.status !== 'deactivated';

/** The name as the directory sorts it: accents folded, case ignored. */
export const nameKey = (name: string) => name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The directory projection for free text and filters: a fixed number of shard items, each holding one
 * compact row (`row_<userId>`) per listed person of that shard, and a sibling holding their post counts
 * (`posts_<userId>`, moved with ADD by `postCountWrites`). A person's shard follows from their id alone.
 */
export const DIRECTORY_SHARDS = 64;

/** A person's shard follows from their id alone (FNV-1a), so writers need no lookup. */
export function shardOf(userId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    h ^= userId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % DIRECTORY_SHARDS;
}

/** A shard's number as its key writes it: two digits (`DIRSHARD#07`). */
export const paddedShard = (shard: number) => String(shard).padStart(2, '0');

/** The attribute of a shard item holding one person's directory row (`DIRSHARD#<nn>` / `ROWS`). */
export const rowAttribute = (userId: string) => `row_${userId}` as const;
/** The attribute of a shard item holding one person's post count (`DIRSHARD#<nn>` / `POSTS`). */
export const postsAttribute = (userId: string) => `posts_${userId}` as const;

/**
 * The names 0.1.0 stored the same attributes under (`r_<userId>`, `p_<userId>`), renamed in 0.2.0
 * without a migration. `0008-directory-attribute-names` (migrations.ts) brings them to the current
 * names; until it has run on every deployment, the readers below accept both forms and a row's
 * removal removes the old name too. The contract step, after 0008, removes these and reads only
 * `row_`/`posts_`.
 */
export const legacyRowAttribute = (userId: string) => `r_${userId}` as const;
export const legacyPostsAttribute = (userId: string) => `p_${userId}` as const;

/** The stored rows of one shard item by person, under either name (the current one wins). */
export function shardRows(shard: Record<string, unknown>): Map<string, unknown> {
  const rows = new Map<string, unknown>();
  for (const prefix of [legacyRowAttribute(''), rowAttribute('')])
    for (const [attr, value] of Object.entries(shard))
      if (attr.startsWith(prefix)) rows.set(attr.slice(prefix.length), value);
  return rows;
}

/** A person's post count in their shard's posts item: the current count plus a 0.1.0 one not yet migrated. */
export const shardPostCount = (posts: Record<string, unknown> | undefined, userId: string) =>
  Number(posts?.[postsAttribute(userId)] ?? 0) + Number(posts?.[legacyPostsAttribute(userId)] ?? 0);
