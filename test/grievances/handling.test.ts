import { afterEach, describe, expect, it } from 'vitest';
import { Grievance, type GrievanceItem } from '../../shared/grievances/entities.ts';
import { raiseGrievance } from '../../shared/grievances/grievances.ts';
import { sendDueReminders } from '../../shared/grievances/reminders.ts';
import { createReply } from '../../shared/grievances/replies.ts';
import { moveStatus } from '../../shared/grievances/status.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { type EmailMessage, setEmailTransport } from '../../shared/transports/email.ts';
import { api, uniq } from '../support/api.ts';
import {
  allPages,
  atTime,
  DAY_MS,
  daysAgo,
  deliverNoticesOf,
  expectClientError,
  expectStatus,
  newHandler,
  world,
} from './helpers.ts';

/**
 * Deadlines, reminders and statistics (shared/grievances/handling.ts). Grievances are raised and
 * handled in the past through the domain functions with a faked clock (`atTime`), and the reminder
 * sweep runs with the real clock or a later one: it only finds what these tests made due. The default
 * periods hold: acknowledgement 7 days, feedback 90 days.
 */
const HOUR_MS = 3_600_000;
const input = (category = 'other') => ({
  subject: `Handling ${uniq()}`,
  description: 'A description that is long enough to raise.',
  category: category as 'other',
});
const stored = async (id: string): Promise<GrievanceItem> => (await Grievance.get({ id }, { consistent: true }))!;
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

afterEach(() => setEmailTransport(undefined));

describe('grievance deadlines', () => {
  it('lists unmet deadlines soonest first, each met, missed or pending; met ones leave the list', async () => {
    const { raiser, handler } = await world();
    // Never acknowledged, due three days ago: missed.
    const missed = await atTime(daysAgo(10), () => raiseGrievance(raiser.id, input()));
    // Acknowledged a day after raising (a move out of open): feedback pending, 90 days after that.
    const t2 = daysAgo(3);
    const acked = await atTime(t2, () => raiseGrievance(raiser.id, input()));
    await atTime(plus(t2, DAY_MS), () => moveStatus(handler.id, acked.id, 'in_review', 'Picked up'));
    // A handler reply acknowledges, a second one gives feedback: nothing left to meet.
    const t3 = daysAgo(2);
    const answered = await atTime(t3, () => raiseGrievance(raiser.id, input()));
    await atTime(plus(t3, HOUR_MS), () => createReply(handler.id, answered.id, 'Received', { asHandler: true }));
    await atTime(plus(t3, 2 * HOUR_MS), () => createReply(handler.id, answered.id, 'Our answer', { asHandler: true }));
    // Acknowledged late (day 9): missed, and the feedback counts from the acknowledgement deadline.
    const t4 = daysAgo(20);
    const late = await atTime(t4, () => raiseGrievance(raiser.id, input()));
    await atTime(plus(t4, 9 * DAY_MS), () => moveStatus(handler.id, late.id, 'in_review', 'Late pick-up'));

    const items = await allPages(handler, '/admin/grievances/deadlines', 7);
    const dues = items.map((i) => i.dueAt);
    expect(dues).toEqual([...dues].sort());
    const byId = new Map(items.map((i) => [i.grievance.id, i]));
    expect(byId.has(answered.id)).toBe(false);

    const m = byId.get(missed.id);
    expect(m).toMatchObject({ next: 'acknowledgement', grievance: { subject: missed.subject, status: 'open' } });
    expect(m.acknowledgement).toEqual({
      dueAt: new Date(Date.parse(missed.createdAt) + 7 * DAY_MS).toISOString(),
      metAt: null,
      state: 'missed',
    });
    expect(m.feedback.state).toBe('pending');

    const a = byId.get(acked.id);
    expect(a.next).toBe('feedback');
    expect(a.acknowledgement).toMatchObject({ metAt: plus(t2, DAY_MS).toISOString(), state: 'met' });
    expect(a.feedback).toEqual({
      dueAt: plus(t2, 91 * DAY_MS).toISOString(),
      metAt: null,
      state: 'pending',
    });
    expect(a.dueAt).toBe(a.feedback.dueAt);

    const l = byId.get(late.id);
    expect(l.acknowledgement).toMatchObject({ metAt: plus(t4, 9 * DAY_MS).toISOString(), state: 'missed' });
    expect(l.feedback.dueAt).toBe(plus(t4, 97 * DAY_MS).toISOString());

    // The one answered twice met both.
    const g = await stored(answered.id);
    expect([g.ackOutcome, g.feedbackOutcome]).toEqual(['met', 'met']);
    expect(g.feedbackAt).toBe(plus(t3, 2 * HOUR_MS).toISOString());
  });

  it('is for super admins only, and refuses a cursor of another list', async () => {
    const { other, handler } = await world();
    const refused = await api('GET', '/admin/grievances/deadlines', { token: other.token });
    expectClientError(refused, 'member');
    expect(refused.status).toBe(403);
    const board = expectStatus(await api('GET', '/admin/grievances?limit=1', { token: handler.token }), 200);
    if (board.nextCursor) {
      const res = await api('GET', `/admin/grievances/deadlines?cursor=${board.nextCursor}`, { token: handler.token });
      expect(res.status).toBe(400);
    }
  });
});

describe('grievance reminders', () => {
  const capture = () => {
    const sent: EmailMessage[] = [];
    setEmailTransport({ send: async (m) => void sent.push(m) });
    return sent;
  };
  const remindersOf = async (userId: string, subject: string) =>
    (await listNotifications(userId, 50)).filter((n) => n.kind === 'grievance' && n.preview.includes(subject));

  it('reminds every super admin once two days before and once at a missed acknowledgement', async () => {
    const { raiser } = await world();
    const watcher = await newHandler();
    const raisedAt = plus(daysAgo(5), -HOUR_MS); // the "2 days before" reminder is an hour overdue
    const g = await atTime(raisedAt, () => raiseGrievance(raiser.id, input()));
    const mails = capture();

    const firstRun = new Date();
    await sendDueReminders(firstRun);
    await sendDueReminders(firstRun); // a rerun sends nothing twice
    await deliverNoticesOf(firstRun);
    const soon = await remindersOf(watcher.id, g.subject);
    expect(soon).toHaveLength(1);
    expect(soon[0]).toMatchObject({ actor: null, preview: `Acknowledgement due within 2 days: ${g.subject}` });
    const toWatcher = mails.filter((m) => m.to === watcher.email);
    expect(toWatcher.filter((m) => m.body.includes(g.id))).toHaveLength(1);
    expect(toWatcher[0].body).not.toContain(g.subject); // the e-mail names the grievance by id only

    // Two days later the deadline has passed unmet.
    const later = plus(raisedAt, 7 * DAY_MS + 60_000);
    await sendDueReminders(later);
    await sendDueReminders(later);
    await deliverNoticesOf(later);
    const all = await remindersOf(watcher.id, g.subject);
    expect(all.map((n) => n.preview).sort()).toEqual([
      `Acknowledgement deadline missed: ${g.subject}`,
      `Acknowledgement due within 2 days: ${g.subject}`,
    ]);
    expect((await stored(g.id)).ackOutcome).toBe('missed');
    // Nobody raised-side hears of it: reminders go to super admins only.
    expect(await remindersOf(raiser.id, g.subject)).toEqual([]);
  });

  it('skips a "due soon" reminder whose deadline has passed, and reminds of a missed feedback deadline', async () => {
    const { raiser, handler } = await world();
    const raisedAt = daysAgo(100);
    const g = await atTime(raisedAt, () => raiseGrievance(raiser.id, input()));
    await atTime(plus(raisedAt, DAY_MS), () => moveStatus(handler.id, g.id, 'in_review', 'Picked up'));
    capture();
    const run = new Date();
    await sendDueReminders(run);
    await sendDueReminders(run);
    await deliverNoticesOf(run);
    expect((await remindersOf(handler.id, g.subject)).map((n) => n.preview)).toEqual([
      `Feedback deadline missed: ${g.subject}`,
    ]);
    const item = await stored(g.id);
    expect(item.feedbackOutcome).toBe('missed');
    expect(item.remindersSent).toEqual(['feedback_soon', 'feedback_missed']);
    // Feedback given late does not turn the outcome into met.
    await moveStatus(handler.id, g.id, 'resolved', 'Done at last');
    expect((await stored(g.id)).feedbackOutcome).toBe('missed');
  });

  it('sends nothing for a deadline met before its reminder', async () => {
    const { raiser, handler } = await world();
    const raisedAt = daysAgo(6);
    const g = await atTime(raisedAt, () => raiseGrievance(raiser.id, input()));
    await atTime(plus(raisedAt, HOUR_MS), () => createReply(handler.id, g.id, 'Received', { asHandler: true }));
    capture();
    const run = new Date();
    await sendDueReminders(run);
    await deliverNoticesOf(run);
    expect(await remindersOf(handler.id, g.subject)).toEqual([]);
    expect((await stored(g.id)).remindersSent).toEqual([]);
  });
});

describe('grievance statistics', () => {
  it('counts a period from counters moved with the raises, moves, replies and the sweep', async () => {
    const { raiser, handler } = await world();
    // A day of its own, far in the past, so no other test counts in it.
    const day = new Date(Date.UTC(2019, Math.floor(Math.random() * 12), 1 + Math.floor(Math.random() * 27), 8));
    const dayText = day.toISOString().slice(0, 10);
    const [a, b] = await atTime(day, async () => [
      await raiseGrievance(raiser.id, input('policy')),
      await raiseGrievance(raiser.id, input('policy')),
      await raiseGrievance(raiser.id, input('workload')),
    ]);
    // a: acknowledged after 90 minutes (bin "2 hours"), resolved after 30 hours (bin "48 hours").
    await atTime(plus(day, 90 * 60_000), () => moveStatus(handler.id, a.id, 'in_review', 'Picked up'));
    await atTime(plus(day, 30 * HOUR_MS), () => moveStatus(handler.id, a.id, 'resolved', 'Done'));
    // b: acknowledged by a handler reply after 30 hours, then left in review.
    await atTime(plus(day, 30 * HOUR_MS), () => createReply(handler.id, b.id, 'Received', { asHandler: true }));
    // c: never handled. The sweep records its missed deadlines, and b's missed feedback.
    await sendDueReminders();

    const to = new Date(day.getTime() + 200 * DAY_MS).toISOString().slice(0, 10);
    const stats = expectStatus(
      await api('GET', `/admin/grievances/stats?from=${dayText}&to=${to}`, { token: handler.token }),
      200,
    );
    expect(stats).toMatchObject({
      from: dayText,
      to,
      raised: 3,
      byStatus: { open: 2, in_review: 0, resolved: 1, closed: 0 },
      byCategory: { policy: 2, workload: 1, other: 0 },
      timeToAcknowledgement: { count: 2, medianHours: 2, p90Hours: 48 },
      timeToResolution: { count: 1, medianHours: 48, p90Hours: 48 },
      deadlines: { acknowledgement: { met: 2, missed: 1 }, feedback: { met: 1, missed: 2 } },
    });
    // b's reply did not move its status: it counts as open still. The day alone: the same raises, and the deadlines fall due later.
    const one = expectStatus(
      await api('GET', `/admin/grievances/stats?from=${dayText}&to=${dayText}`, { token: handler.token }),
      200,
    );
    expect(one).toMatchObject({ raised: 3, deadlines: { acknowledgement: { met: 0, missed: 0 } } });
  });

  it('answers 400 for a period that is not one, 403 for a member', async () => {
    const { other, handler } = await world();
    for (const q of [
      'from=2024-02-10&to=2024-02-01',
      'from=2020-01-01&to=2022-01-01',
      'from=yesterday&to=2024-01-01',
      'from=2024-01-01',
    ]) {
      const res = await api('GET', `/admin/grievances/stats?${q}`, { token: handler.token });
      expectClientError(res, q);
      expect(res.status).toBe(400);
    }
    expect(
      (await api('GET', '/admin/grievances/stats?from=2024-01-01&to=2024-01-02', { token: other.token })).status,
    ).toBe(403);
  });
});
