import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { putMany } from '../../shared/db/table.ts';
import { onlyUser } from '../../shared/live/change-events.ts';
import { LiveEvent } from '../../shared/live/entities.ts';
import { appendEvents, readEventsAfter, readHead, resumePoint } from '../../shared/live/event-log.ts';

const nobody = onlyUser(`test-nobody-${randomUUID()}`);
const draft = (i: number) => ({ type: 'test.event', actorId: null, payload: { i }, audience: nobody, at: new Date() });

/** Events of a made-up epoch written straight to the log, to test the replay window without touching the live epoch. */
async function syntheticLog(entries: { seq: number; at: Date }[]) {
  const epoch = randomUUID();
  await putMany(
    entries.map(({ seq, at }) => ({
      ...LiveEvent.key({ epoch, seq }),
      entity: 'LiveEvent',
      epoch,
      seq,
      type: 'test.event',
      at: at.toISOString(),
      actorId: null,
      payload: {},
      aud: '*',
    })),
  );
  return epoch;
}

describe('event log', () => {
  it('numbers events from the counter in the table: concurrent appends get distinct, consecutive seqs', async () => {
    const before = await readHead(true);
    const batches = await Promise.all(
      Array.from({ length: 20 }, (_, b) => appendEvents([0, 1, 2, 3, 4].map((i) => draft(b * 5 + i)))),
    );
    for (const batch of batches) {
      const seqs = batch.map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i)); // a batch keeps its order, without gaps
    }
    const all = batches.flat().map((e) => e.seq);
    expect(new Set(all).size).toBe(100);
    expect(Math.min(...all)).toBeGreaterThan(before.seq);
    const after = await readHead(true);
    expect(after.epoch).toBe(before.epoch);
    expect(after.seq).toBeGreaterThanOrEqual(before.seq + 100);
  });

  it('stores identifiers and audience, and reads back in seq order after a cursor', async () => {
    const [first, second] = await appendEvents([draft(1), draft(2)]);
    const { epoch } = await readHead(true);
    const read = await readEventsAfter(epoch, first.seq - 1, 2, true);
    expect(read.map((e) => e.seq)).toEqual([first.seq, second.seq]);
    expect(read[0]).toMatchObject({
      type: 'test.event',
      payload: { i: 1 },
      aud: nobody.kind === 'user' ? nobody.userId : '*',
      actorId: null,
    });
  });
});

describe('resuming from Last-Event-ID', () => {
  const head = { epoch: randomUUID(), seq: 5000 };

  it('starts live without an id and replays a gap inside the last 1000 events', async () => {
    expect(await resumePoint(undefined, head)).toEqual({ kind: 'live' });
    expect(await resumePoint(`${head.epoch}:4000`, head)).toEqual({ kind: 'replay', after: 4000 });
    expect(await resumePoint(`${head.epoch}:5000`, head)).toEqual({ kind: 'replay', after: 5000 });
  });

  it('resyncs a malformed id, another epoch, or a seq ahead of the server', async () => {
    for (const id of ['garbage', `${head.epoch}`, `${head.epoch}:`, `${head.epoch}:-1`, `${head.epoch}:1.5`, 'x:1']) {
      expect((await resumePoint(id, head)).kind, id).toBe('resync');
    }
    expect(await resumePoint(`${randomUUID()}:10`, head)).toEqual({ kind: 'resync', reason: 'epoch' });
    expect(await resumePoint(`${head.epoch}:5001`, head)).toEqual({ kind: 'resync', reason: 'ahead' });
  });

  it('beyond 1000 events, replays only while the missed events are less than an hour old', async () => {
    const now = Date.now();
    const recent = await syntheticLog([{ seq: 3001, at: new Date(now - 30 * 60_000) }]);
    expect(await resumePoint(`${recent}:3000`, { epoch: recent, seq: 5000 })).toEqual({ kind: 'replay', after: 3000 });
    const old = await syntheticLog([{ seq: 3001, at: new Date(now - 2 * 3600_000) }]);
    expect(await resumePoint(`${old}:3000`, { epoch: old, seq: 5000 })).toEqual({ kind: 'resync', reason: 'expired' });
    const gone = await syntheticLog([]);
    expect(await resumePoint(`${gone}:3000`, { epoch: gone, seq: 5000 })).toEqual({
      kind: 'resync',
      reason: 'expired',
    });
  });
});
