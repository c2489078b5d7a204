import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.ts';
import { grievanceKey, grievancePartition, grievanceReaderRefKey } from '../../shared/db/keys.ts';
import { getItem, type Item, queryAll, transact } from '../../shared/db/table.ts';
import { readerOf } from '../../shared/grievances/erasure-refs.ts';
import { HANDLING_FIELDS } from '../../shared/grievances/handling.ts';
import { readerRefBackfillWrites, replayedHandling } from '../../shared/grievances/migrations.ts';
import type { GrievanceItem, ReplyItem, StatusChangeItem } from '../../shared/grievances/model.ts';
import { api } from '../support/api.ts';
import { move, raise, reply, world } from './helpers.ts';

/** The grievance migrations (shared/grievances/migrations.ts) on grievances the live code wrote. */

async function stored(grievanceId: string) {
  const partition = await queryAll<Item>({ pk: grievancePartition(grievanceId).pk, consistent: true });
  return {
    g: (await getItem<GrievanceItem>(grievanceKey(grievanceId), true))!,
    history: partition.filter((i) => i.entity === 'GrievanceStatusChange') as StatusChangeItem[],
    replies: partition.filter((i) => i.entity === 'GrievanceReply') as ReplyItem[],
    refs: partition.filter((i) => i.entity === 'GrievanceReaderRef'),
  };
}

describe('grievance migrations', () => {
  it('replays a grievance history into the handling record the live code wrote', async () => {
    const { raiser, handler } = await world();
    const g = await raise(raiser);
    await move(handler, g.id, 'in_review');
    await reply(handler, g.id, 'We are on it.', { admin: true });
    await move(handler, g.id, 'resolved');
    const { g: live, history, replies } = await stored(g.id);
    const old = { ...live } as Record<string, unknown>;
    for (const f of HANDLING_FIELDS) delete old[f];
    const { grievance } = replayedHandling(old as unknown as GrievanceItem, history, replies);
    // The reminders sent and the revision count the live changes; the deadlines and outcomes must agree.
    for (const f of HANDLING_FIELDS.filter((x) => x !== 'remindersSent' && x !== 'handlingRev'))
      expect([f, grievance[f] ?? null]).toEqual([f, live[f] ?? null]);
  });

  it('gives a read marker written before reader references its reference, once', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    // The first read: marker, counter and reference.
    expect((await api('POST', `/grievances/${g.id}/read`, { token: other.token })).status).toBeLessThan(300);
    const before = await stored(g.id);
    expect(before.refs).toHaveLength(1);
    // The 0.1.0 form: the marker without its reference.
    await db().send(
      new DeleteCommand({ TableName: tableName(), Key: { pk: before.refs[0].pk, sk: before.refs[0].sk } }),
    );

    const writes = await readerRefBackfillWrites(before.g);
    expect(writes).toHaveLength(1);
    await transact(writes);
    const after = await stored(g.id);
    expect(after.refs).toHaveLength(1);
    expect(after.refs[0].sk.startsWith(grievanceReaderRefKey(g.id, '').sk)).toBe(true);
    expect(readerOf(after.refs[0] as never)).toBe(other.id);
    expect(await readerRefBackfillWrites(after.g)).toEqual([]);
  });
});
