import type { Key } from '../db/table-definition.ts';
import type { LegacyForm } from '../migrations/stored-form.ts';

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

/**
 * Older stored forms of the grievance entities (CHANGELOG.md, 0.2.0): key composites now stored. Here,
 * apart from the grievance migrations, because the stored-form migration runs where the grievance key
 * is not (docs/deployment.md, "Upgrading and rolling back").
 */
export const grievanceLegacyForms: LegacyForm[] = [
  {
    entity: 'GrievanceStatusChange',
    matches: (i) => i.entity === 'GrievanceStatusChange' && i.move === undefined,
    fields: (i) => ({ move: statusChangeMoveOf(i.sk) }),
    change: 'history entries store their move number (move)',
  },
  {
    entity: 'GrievanceRead',
    matches: (i) => i.entity === 'GrievanceRead' && i.readTag === undefined,
    fields: (i) => ({ readTag: readTagOf(i.pk) }),
    change: 'read markers store their tag (readTag)',
  },
  {
    entity: 'GrievanceNotice',
    matches: (i) => i.entity === 'GrievanceNotice' && i.releaseAt === undefined,
    // The time in the key: an older notice's event time, due at once, like a released one.
    fields: (i) => noticeKeyParts({ pk: i.pk, sk: i.sk }, String(i.id)),
    change: 'queued notices store their queue shard and the time of their key (shard, releaseAt)',
  },
];
