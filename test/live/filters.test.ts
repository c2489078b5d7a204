import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { matchesAny, matchesPattern } from '../../infra/local/filter-pattern.ts';
import { LIVE_MAX_REPLICAS, LiveRecord, LiveReplica, StreamLeases } from '../../shared/live/entities.ts';
import { changeFeedFilters } from '../../shared/live/stream-filters.ts';

/** A stream record as Lambda's filter sees it (DynamoDB JSON images). */
const record = (
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  keys: { pk: string; sk: string },
  oldImage?: object,
  newImage?: object,
) => ({
  eventName,
  dynamodb: {
    Keys: marshall(keys),
    ...(oldImage ? { OldImage: marshall({ ...keys, ...oldImage }) } : {}),
    ...(newImage ? { NewImage: marshall({ ...keys, ...newImage }) } : {}),
  },
});

const post = { pk: 'POST#1', sk: 'POST' };
const passes = (r: object) => matchesAny(changeFeedFilters, r);

describe('change-feed event-source filters', () => {
  it('let ordinary item changes through, whatever the event name', () => {
    expect(passes(record('INSERT', post, undefined, { entity: 'Post', actorId: 'u1' }))).toBe(true);
    expect(passes(record('MODIFY', post, { entity: 'Post' }, { entity: 'Post', content: 'x' }))).toBe(true);
    expect(passes(record('REMOVE', post, { entity: 'Post' }))).toBe(true);
  });

  it('drop every record whose new or old image is anonymous (grievance items and notifications)', () => {
    const g = { pk: 'GRIEVANCE#1', sk: 'GRIEVANCE' };
    expect(passes(record('INSERT', g, undefined, { entity: 'Grievance', anon: true }))).toBe(false);
    expect(
      passes(
        record(
          'MODIFY',
          g,
          { entity: 'Grievance', anon: true },
          { entity: 'Grievance', anon: true, status: 'resolved' },
        ),
      ),
    ).toBe(false);
    expect(passes(record('REMOVE', g, { entity: 'Grievance', anon: true }))).toBe(false);
    const n = { pk: 'NOTIF#u1', sk: 'N#1' };
    expect(passes(record('INSERT', n, undefined, { entity: 'Notification', kind: 'mention', anon: true }))).toBe(false);
    // The flag on either side is enough.
    expect(passes(record('MODIFY', n, { entity: 'Notification', anon: true }, { entity: 'Notification' }))).toBe(false);
    expect(passes(record('MODIFY', n, { entity: 'Notification' }, { entity: 'Notification', anon: true }))).toBe(false);
  });

  it("drop the event log's own writes (partition LIVE), REMOVE by TTL included", () => {
    const e = { pk: 'LIVE', sk: 'EVENT#x#000000000000001' };
    expect(passes(record('INSERT', e, undefined, { entity: 'LiveEvent' }))).toBe(false);
    expect(passes(record('MODIFY', { pk: 'LIVE', sk: 'HEAD' }, { seq: 1 }, { seq: 2 }))).toBe(false);
    expect(passes(record('REMOVE', e, { entity: 'LiveEvent' }))).toBe(false);
  });

  it("drop the replicas' writes (LIVE#<n>) and the stream leases, renewed with every ping", () => {
    for (const replica of [0, LIVE_MAX_REPLICAS - 1]) {
      const r = LiveReplica.key({ replica });
      expect(passes(record('MODIFY', r, { entity: 'LiveReplica', seq: 1 }, { entity: 'LiveReplica', seq: 2 }))).toBe(
        false,
      );
    }
    expect(
      passes(record('INSERT', LiveRecord.key({ recordId: 'e1' }), undefined, { entity: 'LiveRecord', first: 1 })),
    ).toBe(false);
    const leases = StreamLeases.key({ userId: 'u1' });
    expect(
      passes(record('MODIFY', leases, { entity: 'StreamLeases', open: 1 }, { entity: 'StreamLeases', open: 2 })),
    ).toBe(false);
    // The person's other items still pass.
    expect(
      passes(record('MODIFY', { pk: leases.pk, sk: 'PROFILE' }, { entity: 'User' }, { entity: 'User', n: 1 })),
    ).toBe(true);
  });
});

describe('local filter matcher (Lambda semantics)', () => {
  it('applies conditions to leaf values only, so exists must name the DynamoDB type', () => {
    const anon = { dynamodb: { NewImage: { anon: { BOOL: true } } } };
    // The leaf path is NewImage.anon.BOOL: a pattern on the intermediate node never sees a value there.
    expect(matchesPattern({ dynamodb: { NewImage: { anon: [{ exists: false }] } } }, anon)).toBe(true);
    expect(matchesPattern({ dynamodb: { NewImage: { anon: [{ exists: true }] } } }, anon)).toBe(false);
    expect(matchesPattern({ dynamodb: { NewImage: { anon: { BOOL: [{ exists: false }] } } } }, anon)).toBe(false);
    expect(matchesPattern({ dynamodb: { NewImage: { anon: { BOOL: [{ exists: true }] } } } }, anon)).toBe(true);
  });

  it('treats a missing image as absence for exists:false and as no value for anything-but', () => {
    const insert = { dynamodb: { Keys: { pk: { S: 'A' } }, NewImage: { pk: { S: 'A' } } } };
    expect(matchesPattern({ dynamodb: { OldImage: { anon: { BOOL: [{ exists: false }] } } } }, insert)).toBe(true);
    expect(matchesPattern({ dynamodb: { OldImage: { entity: { S: [{ 'anything-but': ['X'] }] } } } }, insert)).toBe(
      false,
    );
    expect(matchesPattern({ dynamodb: { Keys: { pk: { S: [{ 'anything-but': ['LIVE'] }] } } } }, insert)).toBe(true);
    expect(matchesPattern({ dynamodb: { Keys: { pk: { S: [{ prefix: 'A' }] } } } }, insert)).toBe(true);
  });

  it('matches any element of an array value', () => {
    expect(matchesPattern({ tags: ['b'] }, { tags: ['a', 'b'] })).toBe(true);
    expect(matchesPattern({ tags: ['c'] }, { tags: ['a', 'b'] })).toBe(false);
  });
});
