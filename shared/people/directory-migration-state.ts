import { migrationDone } from '../migrations/done.ts';

/**
 * The directory's expand and contract (0.4.0; CHANGELOG.md): `0013-directory-rows` builds every
 * person's directory row and terms from their profile; until it is done on a deployment, `GET /people`
 * reads the directory shards for a filter or `q` (directory.ts) and every change of a person keeps its
 * shard row and post count in step. `0014-directory-shards-removed` then deletes the shards (contract).
 */
export const DIRECTORY_ROWS_MIGRATION = '0013-directory-rows';
export const DIRECTORY_SHARDS_REMOVED_MIGRATION = '0014-directory-shards-removed';

/** Whether the shards are still read (and so written): until 0013 is done. One cached GetItem. */
export const directoryShardsLive = async () => !(await migrationDone(DIRECTORY_ROWS_MIGRATION));
