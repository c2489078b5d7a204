import type { Key } from '../db/table-definition.ts';

/**
 * Key composites of items written before they stored them (CHANGELOG.md, 0.2.0), read back from the
 * stored key: for the stored-form migration (migrations.ts) and the code that still meets such items
 * until it has run. Each is the inverse of its entity's key template (entities.ts; checked by
 * test/grievances/units.test.ts).
 */

/** A history entry's move number, from its sort key `STATUS#<move, 8 digits>`. */
export const statusChangeMoveOf = (sk: string) => Number(sk.slice('STATUS#'.length));

/** A read marker's tag, from its partition key `GRIEVANCE_READ#<readTag>`. */
export const readTagOf = (pk: string) => pk.slice('GRIEVANCE_READ#'.length);

/**
 * A queued notice's shard and time, from its key `GRIEVANCE_NOTICES#<shard>` / `<time>#<id>`. The time
 * is the release time; a notice of 0.2.0 and earlier was keyed by its event's time, which its batch
 * treated the same way (due a fixed delay after it).
 */
export const noticeKeyParts = (key: Key, noticeId: string) => ({
  shard: Number(key.pk.slice(key.pk.lastIndexOf('#') + 1)),
  releaseAt: key.sk.slice(0, key.sk.length - noticeId.length - 1),
});
