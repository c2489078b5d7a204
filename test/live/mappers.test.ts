import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { changeType, type ItemChange } from '../../shared/live/change-events.ts';
import { eventsOf, toItemChange } from '../../shared/live/change-feed.ts';
import { notificationChanges, notificationsReadAllChanges } from '../../shared/notifications/change-events.ts';
import { notificationItem } from '../../shared/notifications/notifications.ts';
import { presenceChanges } from '../../shared/presence/change-events.ts';
import * as z from '../../shared/util/zod.ts';

const at = new Date('2026-01-02T03:04:05.000Z');
/** A change type of these tests only (mappers answer declared events). */
const thing = changeType('t', 'everyone', 'A test event.', z.object({}));
const change = (
  eventName: ItemChange['eventName'],
  oldImage?: Record<string, any>,
  newImage?: Record<string, any>,
): ItemChange => ({
  eventName,
  oldImage,
  newImage,
  at,
});

const notification = {
  entity: 'Notification',
  id: 'n1',
  recipientId: 'r1',
  kind: 'comment',
  actorId: 'a1',
  readAt: null,
};

describe('notification mapper', () => {
  it('announces a recorded notification to its recipient only, with id and kind', () => {
    expect(notificationChanges(change('INSERT', undefined, notification))).toEqual([
      {
        type: 'notification.created',
        actorId: 'a1',
        payload: { notificationId: 'n1', kind: 'comment' },
        audience: { kind: 'user', userId: 'r1' },
      },
    ]);
  });

  it('attributes a notification nobody caused (poll closing on time) to the recipient', () => {
    const [e] = notificationChanges(
      change('INSERT', undefined, { ...notification, kind: 'poll_closed', actorId: null }),
    );
    expect(e.actorId).toBe('r1');
  });

  it('never announces an anonymous (grievance) notification', () => {
    expect(
      notificationChanges(change('INSERT', undefined, { ...notification, kind: 'mention', actorId: null, anon: true })),
    ).toEqual([]);
    expect(
      notificationChanges(
        change('MODIFY', { ...notification, anon: true }, { ...notification, anon: true, readAt: 'x' }),
      ),
    ).toEqual([]);
  });

  it('tells sealed notifications apart only after opening them: a grievance one is never announced', () => {
    const sealed = (kind: 'comment' | 'mention', anonymous: boolean) => ({
      entity: 'Notification',
      ...notificationItem(
        { recipientId: 'r1', kind, actorId: anonymous ? null : 'a1', preview: 'p', anonymous },
        at,
        `n-${kind}`,
      ),
    });
    const grievance = sealed('mention', true);
    const plain = sealed('mention', false);
    // Both carry the same attributes: the stream's filter cannot tell them apart.
    expect(Object.keys(grievance).sort()).toEqual(Object.keys(plain).sort());
    expect(notificationChanges(change('INSERT', undefined, grievance))).toEqual([]);
    expect(notificationChanges(change('MODIFY', grievance, { ...grievance, readAt: 'x' }))).toEqual([]);
    expect(notificationChanges(change('INSERT', undefined, plain))).toEqual([
      expect.objectContaining({
        type: 'notification.created',
        payload: { notificationId: 'n-mention', kind: 'mention' },
      }),
    ]);
  });

  it('announces one read mark, by the recipient, and nothing for marks made by mark-all or other changes', () => {
    const read = { ...notification, readAt: '2026-01-02T03:04:05.000Z' };
    expect(notificationChanges(change('MODIFY', notification, read))).toEqual([
      {
        type: 'notification.read',
        actorId: 'r1',
        payload: { notificationId: 'n1' },
        audience: { kind: 'user', userId: 'r1' },
      },
    ]);
    expect(notificationChanges(change('MODIFY', notification, { ...read, readAll: true }))).toEqual([]);
    expect(notificationChanges(change('MODIFY', read, { ...read, preview: 'other' }))).toEqual([]);
    expect(notificationChanges(change('REMOVE', read, undefined))).toEqual([]);
  });

  it('announces mark-all once, with a null id', () => {
    const marker = { entity: 'NotificationReadAll', userId: 'r1', actorId: 'r1', readAt: '2026-01-02T03:04:05.000Z' };
    const expected = [
      {
        type: 'notification.read',
        actorId: 'r1',
        payload: { notificationId: null },
        audience: { kind: 'user', userId: 'r1' },
      },
    ];
    expect(notificationsReadAllChanges(change('INSERT', undefined, marker))).toEqual(expected);
    expect(notificationsReadAllChanges(change('MODIFY', { ...marker, readAt: 'earlier' }, marker))).toEqual(expected);
  });
});

describe('presence mapper', () => {
  const item = (presence: string) => ({ entity: 'Presence', userId: 'u1', presence });

  it('announces the new value to everyone when it changes, including the first heartbeat', () => {
    expect(presenceChanges(change('INSERT', undefined, item('active')))).toEqual([
      {
        type: 'presence.updated',
        actorId: 'u1',
        payload: { userId: 'u1', presence: 'active' },
        audience: { kind: 'all' },
      },
    ]);
    expect(presenceChanges(change('MODIFY', item('active'), item('away')))[0].payload).toEqual({
      userId: 'u1',
      presence: 'away',
    });
    expect(presenceChanges(change('MODIFY', item('away'), item('offline')))[0].payload).toEqual({
      userId: 'u1',
      presence: 'offline',
    });
  });

  it('stays silent for heartbeats that change nothing visible', () => {
    expect(presenceChanges(change('MODIFY', item('active'), { ...item('active'), lastSeenAt: 'later' }))).toEqual([]);
    expect(presenceChanges(change('INSERT', undefined, item('offline')))).toEqual([]);
  });
});

describe('change-feed mapping', () => {
  const streamRecord = (
    eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
    oldImage?: object,
    newImage?: object,
  ): DynamoDBRecord => ({
    eventName,
    dynamodb: {
      ApproximateCreationDateTime: at.getTime() / 1000,
      Keys: marshall({ pk: 'p', sk: 's' }) as never,
      ...(oldImage ? { OldImage: marshall(oldImage, { removeUndefinedValues: true }) as never } : {}),
      ...(newImage ? { NewImage: marshall(newImage, { removeUndefinedValues: true }) as never } : {}),
    },
  });

  it('unmarshalls images and takes the time of the change', () => {
    const c = toItemChange(
      streamRecord('MODIFY', { entity: 'X', n: 1, tags: ['a'] }, { entity: 'X', n: 2, nested: { a: null } }),
    );
    expect(c).toEqual({
      eventName: 'MODIFY',
      oldImage: { entity: 'X', n: 1, tags: ['a'] },
      newImage: { entity: 'X', n: 2, nested: { a: null } },
      at,
    });
  });

  it('reads an empty map that DynamoDB Local streams without a type key', () => {
    const r = streamRecord('MODIFY', { entity: 'X' }, { entity: 'X' });
    (r.dynamodb!.NewImage as Record<string, unknown>).tallies = {};
    (r.dynamodb!.NewImage as Record<string, unknown>).nested = { M: { inner: {} } };
    expect(toItemChange(r).newImage).toEqual({ entity: 'X', tallies: {}, nested: { inner: {} } });
  });

  it('calls the mapper of the item entity and stamps the events with the change time', () => {
    const mappers = { Thing: () => [thing.event('a', {})] };
    expect(eventsOf(change('INSERT', undefined, { entity: 'Thing' }), mappers)).toEqual([
      { type: 't', actorId: 'a', payload: {}, audience: { kind: 'all' }, at },
    ]);
    expect(eventsOf(change('REMOVE', { entity: 'Thing' }, undefined), mappers)).toHaveLength(1);
    expect(eventsOf(change('INSERT', undefined, { entity: 'Other' }), mappers)).toEqual([]);
    expect(eventsOf(change('INSERT', undefined, { noEntity: true }), mappers)).toEqual([]);
  });

  it('drops anonymous items even if a filter let one through, and survives a failing mapper', () => {
    const mappers = {
      Thing: () => [thing.event('a', {})],
      Broken: () => {
        throw new Error('bad image');
      },
    };
    expect(eventsOf(change('INSERT', undefined, { entity: 'Thing', anon: true }), mappers)).toEqual([]);
    expect(eventsOf(change('REMOVE', { entity: 'Thing', anon: true }, undefined), mappers)).toEqual([]);
    expect(eventsOf(change('INSERT', undefined, { entity: 'Broken' }), mappers)).toEqual([]);
  });
});
