import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createReplyHandler } from '../../functions/grievances/create-grievance-reply.ts';
import { handler as raiseHandler } from '../../functions/grievances/raise-grievance.ts';
import { handler as listNotificationsHandler } from '../../functions/notifications/list-notifications.ts';
import { Session } from '../../shared/auth/entities.ts';
import { hashToken } from '../../shared/auth/tokens.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { ANON_ATTRIBUTE } from '../../shared/db/table-definition.ts';
import { Grievance } from '../../shared/grievances/entities.ts';
import { raiseGrievance } from '../../shared/grievances/grievances.ts';
import { deliverGrievanceNotices } from '../../shared/grievances/notice-delivery.ts';
import { maxReleaseDelayMs, noticeTiming } from '../../shared/grievances/notices.ts';
import { markRead as markGrievanceRead } from '../../shared/grievances/read-state.ts';
import { sendDueReminders } from '../../shared/grievances/reminders.ts';
import { createReply, editReply } from '../../shared/grievances/replies.ts';
import { eraseExpiredGrievances } from '../../shared/grievances/retention.ts';
import { moveStatus } from '../../shared/grievances/status.ts';
import { listNotifications, notify } from '../../shared/notifications/notifications.ts';
import { logger } from '../../shared/observability/logger.ts';
import { changeMappers } from '../../shared/registry/change-mappers.ts';
import { setEmailTransport } from '../../shared/transports/email.ts';
import { api, newMember, uniq } from '../support/api.ts';
import { invokeCapturingLogs } from '../support/lambda-event.ts';
import { runtimeOfItsOwn, type SeededCompany } from '../support/seeded-company.ts';
import { streamRecorder } from '../support/stream-records.ts';
import {
  atTime,
  changes,
  DAY_MS,
  deliverNoticesOf,
  deliverQueuedNotices,
  expectStatus,
  mentions,
  move,
  type Person,
  personalItems,
  raise,
  reply,
  scanTable,
  settled,
  timesIn,
  world,
} from './helpers.ts';

const identity = (p: Person) => [p.id, p.email, p.name];
/** The items the handling of grievances adds (shared/grievances/handling-index.ts, stats-fields.ts, ...). */
const HANDLING_ENTITIES = [
  'GrievanceHandlingEntry',
  'GrievanceStats',
  'GrievanceErasureAudit',
  'GrievanceReaderRef',
  'GrievanceNotificationRef',
];
const newInput = () => ({
  subject: `Handled anonymously ${uniq()}`,
  description: 'A description long enough to raise.',
  category: 'other' as const,
});

// Its tests read the whole table: a runtime of its own, so they read this file's items, not the run's
// (late in a run, on the suite's table, they passed their time limit).
let runtime: SeededCompany;
beforeAll(async () => {
  runtime = await runtimeOfItsOwn();
}, 120_000);
afterAll(() => runtime?.stop());

describe('grievances: anonymity at rest', () => {
  it('no item that names a grievance or reply names its raiser or a replier, and no item of theirs names the grievance', async () => {
    const { raiser, other, handler } = await world();
    const tagged = await newMember();
    const g = await raise(raiser, { category: 'harassment' });
    const fromRaiser = await reply(raiser, g.id, 'The raiser adds a detail');
    const fromOther = await reply(other, g.id, `A colleague asks @[${tagged.id}] to look`);
    const fromHandler = await reply(handler, g.id, `The team asks @[${raiser.id}] and @[${tagged.id}]`, {
      admin: true,
    });
    expectStatus(
      await api('PATCH', `/grievances/${g.id}/replies/${fromOther.id}`, {
        token: other.token,
        body: { body: `Edited, asking @[${tagged.id}] and @[${raiser.id}]` },
      }),
      200,
    );
    await move(handler, g.id, 'in_review', 'The team picked it up');
    expectStatus(await api('POST', `/grievances/${g.id}/read`, { token: other.token }), 204);
    expectStatus(await api('POST', `/grievances/${g.id}/read`, { token: raiser.token }), 204);
    const changeIds = (await api('GET', `/grievances/${g.id}/status-changes`, { token: other.token })).body.map(
      (c: any) => c.id,
    );

    const items = await scanTable();
    const about = [g.id, fromRaiser.id, fromOther.id, fromHandler.id, ...changeIds];
    const texts = [g.subject, g.description, fromRaiser.body, fromHandler.body, 'Edited, asking'];
    const naming = items.filter((i) => mentions(JSON.stringify(i), about).length > 0);
    // The grievance, its three replies and its two history entries at least.
    expect(naming.length).toBeGreaterThanOrEqual(6);
    for (const item of naming) {
      const text = JSON.stringify(item);
      for (const author of [raiser, other, handler]) {
        expect(mentions(text, identity(author)), `${item.pk}/${item.sk} names an author`).toEqual([]);
      }
      expect(item[ANON_ATTRIBUTE], `${item.pk}/${item.sk} carries the anon attribute`).toBe(true);
      expect(item.actorId ?? null, `${item.pk}/${item.sk} has no actor`).toBeNull();
    }
    // Items that name a person (their profile, sessions, notifications) carry nothing of the grievance.
    for (const person of [raiser, other, handler, tagged]) {
      for (const item of items.filter((i) => mentions(JSON.stringify(i), [person.id, person.email]).length > 0)) {
        expect(
          mentions(JSON.stringify(item), [...about, ...texts]),
          `${item.pk}/${item.sk} ties ${person.name} to the grievance`,
        ).toEqual([]);
      }
    }
    // The notifications, once delivered, were recorded (sealed) and read back in clear for their recipient.
    await deliverQueuedNotices();
    const raiserNotes = (await api('GET', '/notifications?limit=50', { token: raiser.token })).body;
    expect(raiserNotes.map((n: any) => n.preview)).toContain(g.subject);
    expect(raiserNotes.every((n: any) => n.actor === null)).toBe(true);
  });

  it('no personal item written because of a grievance event is dated within the delivery window of that event', async () => {
    const { raiser, other, handler } = await world();
    const tagged = await newMember();
    const people = [raiser, other, handler, tagged];
    const before = new Map(await settled(() => personalItems(people)));
    // Events further apart than a notice's longest delay, so that each window holds one event only.
    const pause = () => new Promise((r) => setTimeout(r, maxReleaseDelayMs()));
    const g = await raise(raiser);
    await pause();
    const fromOther = await reply(other, g.id, `A colleague asks @[${tagged.id}]`);
    await pause();
    const fromHandler = await reply(handler, g.id, `The team asks @[${raiser.id}]`, { admin: true });
    await pause();
    const edited = expectStatus(
      await api('PATCH', `/grievances/${g.id}/replies/${fromOther.id}`, {
        token: other.token,
        body: { body: `A colleague asks @[${tagged.id}] and @[${raiser.id}]` },
      }),
      200,
    );
    await pause();
    await move(handler, g.id, 'in_review', 'The team picked it up');
    await pause();
    await reply(other, g.id, 'A second colleague reply');
    await pause();
    await move(handler, g.id, 'resolved', 'Sorted out');
    const events = [
      g.createdAt,
      fromOther.createdAt,
      fromHandler.createdAt,
      edited.editedAt,
      ...(await changes(other, g.id)).map((c: any) => c.createdAt),
    ].map((t: string) => Date.parse(t));
    expect(events.every(Number.isFinite)).toBe(true);

    await deliverQueuedNotices();
    const after = await settled(() => personalItems(people));
    // What the flow wrote or changed for these people: their notifications and unread counters.
    const written = after.filter(([key, json]) => before.get(key) !== json).map(([, json]) => JSON.parse(json));
    const notes = written.filter((i) => i.entity === 'Notification');
    // The raiser: 2 replies by others + 2 moves (kind grievance), tagged by the handler's reply and by
    // the edit (kind mention); the tagged colleague: 1 mention.
    expect(notes.filter((n) => n.recipientId === raiser.id)).toHaveLength(6);
    expect(notes.filter((n) => n.recipientId === tagged.id)).toHaveLength(1);
    for (const item of written) {
      for (const t of timesIn(item)) {
        for (const e of events) {
          // Nothing lies in the window after an event in which none of its notifications is delivered:
          // a time there would be matched to that event.
          const sinceEvent = t - e;
          expect(
            sinceEvent >= 0 && sinceEvent < noticeTiming().minDelayMs,
            `${item.pk}/${item.sk}: ${new Date(t).toISOString()} is in the delivery window of an event`,
          ).toBe(false);
        }
      }
    }
  });

  it('handling items (deadline and reminder entries, statistics, erasure audit, sealed references) and reminders tie no one to a grievance', async () => {
    const { raiser, other, handler } = await world();
    const tagged = await newMember();
    const people = [raiser, other, handler, tagged];
    setEmailTransport({ send: async () => undefined });
    try {
      // One finished long ago and erased (an audit item): its own retention period reaches only it.
      const old = new Date(Date.UTC(2010, 2, 1 + Math.floor(Math.random() * 27), 9));
      const erased = await atTime(old, () => raiseGrievance(raiser.id, newInput()));
      await atTime(new Date(old.getTime() + 60_000), async () =>
        markGrievanceRead(other.id, (await Grievance.get({ id: erased.id }, { consistent: true }))!),
      );
      await atTime(new Date(old.getTime() + DAY_MS), () => moveStatus(handler.id, erased.id, 'closed', 'Done'));
      await eraseExpiredGrievances(new Date(), 5000);

      // One whose acknowledgement is due in two days: read, answered with a tag, reminded of.
      const before = new Map(await settled(() => personalItems(people)));
      const t = new Date(Date.now() - 5 * DAY_MS - 3_600_000);
      const g = await atTime(t, () => raiseGrievance(raiser.id, newInput()));
      const read = new Date(t.getTime() + 30_000);
      await atTime(read, async () =>
        markGrievanceRead(other.id, (await Grievance.get({ id: g.id }, { consistent: true }))!),
      );
      const replied = await atTime(new Date(t.getTime() + 60_000), () =>
        createReply(other.id, g.id, `Asking @[${tagged.id}]`, { asHandler: false }),
      );
      await deliverGrievanceNotices(new Date(t.getTime() + 120_000), t);
      const remindedAt = new Date();
      await sendDueReminders(remindedAt);
      await deliverNoticesOf(remindedAt);

      const items = await scanTable();
      const handling = items.filter((i) => HANDLING_ENTITIES.includes(i.entity));
      for (const entity of HANDLING_ENTITIES) {
        expect(
          handling.some((i) => i.entity === entity),
          entity,
        ).toBe(true);
      }
      for (const item of handling) {
        const text = JSON.stringify(item);
        for (const person of people) {
          expect(mentions(text, identity(person)), `${item.pk}/${item.sk} names ${person.name}`).toEqual([]);
        }
        expect(item[ANON_ATTRIBUTE], `${item.pk}/${item.sk} carries the anon attribute`).toBe(true);
        expect(item.actorId ?? null).toBeNull();
      }
      // Nothing of the erased one is left; nothing personal names the live one.
      expect(items.filter((i) => JSON.stringify(i).includes(erased.id))).toEqual([]);
      for (const person of people) {
        for (const item of items.filter((i) => mentions(JSON.stringify(i), [person.id, person.email]).length > 0)) {
          expect(
            mentions(JSON.stringify(item), [g.id, replied.id, g.subject, g.description]),
            `${item.pk}/${item.sk} ties ${person.name} to the grievance`,
          ).toEqual([]);
        }
      }
      // The reminder reached the handler, and no personal item written meanwhile is timed by an event.
      const reminders = (await listNotifications(handler.id, 50)).filter((n) => n.preview.includes(g.subject));
      expect(reminders.map((n) => n.actor)).toEqual([null]);
      const events = [g.createdAt, read.toISOString(), replied.createdAt].map((x) => Date.parse(x));
      const after = await settled(() => personalItems(people));
      const written = after.filter(([key, json]) => before.get(key) !== json).map(([, json]) => JSON.parse(json));
      expect(written.some((i) => i.entity === 'Notification' && i.recipientId === handler.id)).toBe(true);
      for (const item of written) {
        for (const time of timesIn(item)) {
          for (const e of events) {
            expect(Math.abs(time - e), `${item.pk}/${item.sk} is timed by an event`).toBeGreaterThan(1000);
          }
        }
      }
    } finally {
      setEmailTransport(undefined);
    }
  });

  it('grievance entities have no change mapper (nothing reaches the live stream)', () => {
    for (const entity of [
      'Grievance',
      'GrievanceReply',
      'GrievanceStatusChange',
      'GrievanceRead',
      'GrievanceSeen',
      'GrievanceTotals',
      'GrievanceNotice',
      ...HANDLING_ENTITIES,
    ]) {
      expect(changeMappers[entity]).toBeUndefined();
    }
  });

  it('a grievance request touches nothing keyed or stamped by the caller (no session refresh); other routes do', async () => {
    const m = await newMember();
    const session = Session.key({ tokenHash: hashToken(m.token) });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600e3).toISOString();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: session,
        UpdateExpression: 'SET updatedAt = :u',
        ExpressionAttributeValues: { ':u': twoDaysAgo },
      }),
    );
    // Settled: the change feed writes its events a moment after the change (e.g. the sign-in that
    // activated the member), so only this test's requests remain to compare.
    const snapshot = async () => new Map(await settled(() => personalItems([m])));
    const before = await snapshot();
    const g = await raise(m);
    const r = await reply(m, g.id, 'My own follow-up');
    expectStatus(
      await api('PATCH', `/grievances/${g.id}/replies/${r.id}`, { token: m.token, body: { body: 'Edited follow-up' } }),
      200,
    );
    expectStatus(await api('DELETE', `/grievances/${g.id}/replies/${r.id}`, { token: m.token }), 204);
    expectStatus(await api('POST', `/grievances/${g.id}/read`, { token: m.token }), 204);
    for (const path of [
      '/grievances',
      '/grievances/unread-count',
      `/grievances/${g.id}`,
      `/grievances/${g.id}/replies`,
      `/grievances/${g.id}/status-changes`,
    ]) {
      expectStatus(await api('GET', path, { token: m.token }), 200, path);
    }
    expect(await snapshot()).toEqual(before);
    // The control: a route that is not a grievance route refreshes the day-old session.
    expectStatus(await api('GET', '/notifications', { token: m.token }), 200);
    expect((await snapshot()).get(`${session.pk}|${session.sk}`)).not.toEqual(
      before.get(`${session.pk}|${session.sk}`),
    );
  });
});

/**
 * The writes one unit (a transaction or a single write) makes: the keys it writes and the text of what
 * it writes. Condition checks write nothing and leave no record in the table, stream or backups.
 */
type Unit = { keys: string[]; text: string };
function unitsOf(command: any): Unit[] {
  const input = command?.input ?? {};
  const one = (op: any) => ({
    key: op.Item ? `${op.Item.pk}|${op.Item.sk}` : op.Key ? `${op.Key.pk}|${op.Key.sk}` : '',
    text: JSON.stringify(op),
  });
  if (Array.isArray(input.TransactItems)) {
    const ops = input.TransactItems.flatMap((t: any) => [t.Put, t.Update, t.Delete].filter(Boolean)).map(one);
    return [{ keys: ops.map((o: any) => o.key), text: ops.map((o: any) => o.text).join('\n') }];
  }
  if (Array.isArray(input.RequestItems?.[tableName()]))
    return input.RequestItems[tableName()].map((r: any) => {
      const o = one(r.PutRequest ?? r.DeleteRequest ?? {});
      return { keys: [o.key], text: o.text };
    });
  if (input.Item || (input.Key && (input.UpdateExpression || command.constructor?.name === 'DeleteCommand'))) {
    const o = one(input);
    return [{ keys: [o.key], text: o.text }];
  }
  return [];
}

describe('grievances: anonymity against a table export, a backup and the stream', () => {
  it('after a raise, replies with tags, an edit, a move and their delivery, nothing ties a person to the grievance', async () => {
    const { raiser, other, handler } = await world();
    const tagged = await newMember();
    const people = [raiser, other, handler, tagged];
    const t = noticeTiming();
    // Each person's control: a notification that has nothing to do with any grievance.
    for (const p of people)
      await notify([{ recipientId: p.id, kind: 'announcement', actorId: null, preview: 'Control' }]);
    const controlShape = Object.keys(
      (await scanTable()).find((i) => i.entity === 'Notification' && i.recipientId === raiser.id)!,
    ).sort();

    const recorder = streamRecorder();
    await recorder.start();
    const units: Unit[] = [];
    const client = db();
    const send = client.send.bind(client);
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: any, ...rest: any[]) => {
      units.push(...unitsOf(command));
      return (send as any)(command, ...rest);
    }) as never);
    // The events, an hour ago and ten seconds apart, through the domain (the same writes as the routes).
    const t0 = Date.now() - 3_600_000 - Math.floor(Math.random() * 600_000);
    const when = (k: number) => new Date(t0 + k * 10_000);
    let g: Awaited<ReturnType<typeof raiseGrievance>>;
    const ids: string[] = [];
    try {
      g = await atTime(when(0), () => raiseGrievance(raiser.id, newInput()));
      const r1 = await atTime(when(1), () =>
        createReply(other.id, g.id, `A colleague asks @[${tagged.id}]`, { asHandler: false }),
      );
      const r2 = await atTime(when(2), () =>
        createReply(handler.id, g.id, `The team asks @[${raiser.id}] and @[${tagged.id}]`, { asHandler: true }),
      );
      await atTime(when(3), () =>
        editReply(other.id, g.id, r1.id, `Edited, asking @[${tagged.id}] and @[${raiser.id}]`),
      );
      await atTime(when(4), () => moveStatus(handler.id, g.id, 'in_review', 'The team picked it up'));
      ids.push(g.id, r1.id, r2.id);
      // The batches of that hour, as the schedule would have run them.
      await deliverGrievanceNotices(new Date(when(4).getTime() + maxReleaseDelayMs() + t.settleMs + 100), when(0));
    } finally {
      spy.mockRestore();
    }
    ids.push(...(await changes(other, g.id)).map((c: any) => c.id));
    const about = [...ids, g.subject];
    const events = [0, 1, 2, 3, 4].map((k) => when(k).getTime());
    const naming = (text: string) => mentions(text, about).length > 0 || /grievance/i.test(text);
    const personal = (text: string) =>
      mentions(
        text,
        people.flatMap((p) => [p.id, p.email]),
      ).length > 0;

    // Delivered: the raiser and the tagged colleague read theirs, in clear, with the preview.
    const raiserNotes = (await listNotifications(raiser.id, 50)).filter((n) => n.preview.includes(g.subject));
    expect(raiserNotes.length).toBeGreaterThanOrEqual(3);
    expect(raiserNotes.map((n) => n.kind)).toContain('grievance');
    expect((await listNotifications(tagged.id, 50)).map((n) => n.kind)).toContain('mention');

    // The table (a full export, a backup): every personal item says nothing of the grievance, and
    // every notification has the control's form, whatever its kind.
    const items = (await scanTable()).filter((i) => personal(JSON.stringify(i)));
    const notes = items.filter((i) => i.entity === 'Notification');
    expect(notes.length).toBeGreaterThanOrEqual(2 * people.length);
    for (const item of items) {
      const text = JSON.stringify(item);
      expect(naming(text), `${item.pk}/${item.sk} names a grievance`).toBe(false);
      expect(item[ANON_ATTRIBUTE], `${item.pk}/${item.sk} is marked`).toBeUndefined();
    }
    for (const n of notes) {
      expect(Object.keys(n).sort(), `${n.pk}/${n.sk}`).toEqual(controlShape);
      expect(/mention|announcement/.test(JSON.stringify(n)), `${n.pk}/${n.sk} says its kind`).toBe(false);
    }
    // Nor is any personal item dated within the delivery window of a single event: nothing written
    // for these people is timed less than the minimum delay after one.
    for (const item of items) {
      for (const time of timesIn(item)) {
        for (const e of events) {
          const after = time - e;
          expect(after >= 0 && after < t.minDelayMs, `${item.pk}/${item.sk} is timed by an event`).toBe(false);
        }
      }
    }

    // The stream: no record names a person and the grievance.
    await new Promise((r) => setTimeout(r, 500));
    const records = await recorder.read();
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      const text = JSON.stringify([r.keys, r.newImage ?? null, r.oldImage ?? null]);
      if (personal(text)) expect(naming(text), `${r.eventName} ${JSON.stringify(r.keys)}`).toBe(false);
    }

    // The writes: no transaction writes a person's item beside an item that names the grievance,
    // and no item written with the grievance's is written again with a person's (as a queued notice
    // taken off its queue in the transaction that delivers it would be).
    const grievanceKeys = new Set(units.filter((u) => naming(u.text)).flatMap((u) => u.keys));
    const personalUnits = units.filter((u) => personal(u.text));
    expect(personalUnits.length).toBeGreaterThan(0);
    for (const u of personalUnits) {
      expect(naming(u.text), `a transaction pairs a person with the grievance: ${u.keys.join(', ')}`).toBe(false);
      for (const k of u.keys)
        expect(grievanceKeys.has(k), `${k} is written with the grievance and a person`).toBe(false);
    }
  });
});

describe('grievances: log lines', () => {
  afterEach(() => vi.restoreAllMocks());

  /** Calls a route's handler in this process, the way API Gateway would, and answers what it logged. */
  const invoke = (
    handler: (event: any, context: any) => Promise<any>,
    p: Person,
    o: { method: string; path: string; params?: Record<string, string>; body?: unknown },
  ) => invokeCapturingLogs(handler, p.token, o);

  it('grievance routes log no user id, e-mail or name; other routes do log the caller', async () => {
    const previous = logger.getLevelName();
    logger.setLogLevel('INFO');
    // Powertools' injectLambdaContext puts the configured level back at each invocation (its sampling
    // refresh); this test keeps INFO for its own invocations so it sees the access lines.
    const keepLevel = vi.spyOn(logger, 'refreshSampleRateCalculation').mockImplementation(() => undefined);
    try {
      const { raiser, other } = await world();
      const raised = await invoke(raiseHandler, raiser, {
        method: 'POST',
        path: '/api/v1/grievances',
        body: { subject: 'Logged grievance', description: 'A description that is long enough.', category: 'other' },
      });
      expect(raised.res.statusCode).toBe(201);
      const id = JSON.parse(raised.res.body).id;
      const replied = await invoke(createReplyHandler, other, {
        method: 'POST',
        path: `/api/v1/grievances/${id}/replies`,
        params: { grievanceId: id },
        body: { body: 'A reply in the log test' },
      });
      expect(replied.res.statusCode).toBe(201);
      const failed = await invoke(createReplyHandler, other, {
        method: 'POST',
        path: `/api/v1/grievances/${id}/replies`,
        params: { grievanceId: id },
        body: { body: 'x', authorRole: 'employee' },
      });
      expect(failed.res.statusCode).toBe(400);
      for (const [call, who] of [
        [raised, raiser],
        [replied, other],
        [failed, other],
      ] as const) {
        expect(call.log).toContain('"route"'); // the access line was captured
        expect(mentions(call.log, identity(who))).toEqual([]);
      }
      // The control: the same capture sees the caller's id on a route that is not anonymous.
      const control = await invoke(listNotificationsHandler, other, { method: 'GET', path: '/api/v1/notifications' });
      expect(control.res.statusCode).toBe(200);
      expect(control.log).toContain(other.id);
    } finally {
      keepLevel.mockRestore();
      logger.setLogLevel(previous as 'INFO');
    }
  });
});
