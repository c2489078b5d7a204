import { afterEach, describe, expect, it } from 'vitest';
import { checkIn, checkOut } from '../../shared/hr/attendance.ts';
import { PresentCounter } from '../../shared/hr/entities.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';
import { refusalStatus } from '../support/refusal.ts';

/** A person as the attendance domain needs them (id and name); days far from today keep counters private to a test. */
const person = () => ({ id: `attendee-${uniq()}`, name: `Attendee ${uniq()}` });
const present = async (date: string) => (await PresentCounter.get({ date }, { consistent: true }))?.present ?? 0;
const zone = process.env.COMPANY_TIMEZONE;
afterEach(() => {
  process.env.COMPANY_TIMEZONE = zone;
});

describe('check-in and check-out races', () => {
  it('makes one record of 50 simultaneous check-ins by one person', async () => {
    const m = await newMember();
    const before = (await api('GET', '/attendance/today', { token: m.token })).body;
    expect(before.me.status).toBe('NOT_CHECKED_IN');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => api('POST', '/attendance/check-in', { token: m.token })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    const history = (await api('GET', '/attendance/history', { token: m.token })).body;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ employeeId: m.id, status: 'PRESENT', checkOut: null });
  });

  it('moves currentlyPresentCount exactly with 50 people checking in and out at once', async () => {
    const day = new Date('2031-01-15T10:00:00Z');
    const people = Array.from({ length: 50 }, person);
    await Promise.all(people.map((p) => checkIn(p, day)));
    expect(await present('2031-01-15')).toBe(50);
    const second = await Promise.all(people.map((p) => refusalStatus(checkIn(p, day))));
    expect(second.every((status) => status === 409)).toBe(true);
    expect(await present('2031-01-15')).toBe(50);
    const outs = await Promise.allSettled(
      [...people, ...people].map((p) => checkOut(p, new Date('2031-01-15T18:00:00Z'))),
    );
    expect(outs.filter((r) => r.status === 'fulfilled')).toHaveLength(50);
    expect(await present('2031-01-15')).toBe(0);
  });
});

describe('company days', () => {
  it('files a check-in under the company-timezone day, across a daylight-saving change', async () => {
    process.env.COMPANY_TIMEZONE = 'America/New_York';
    const p = person();
    // 23:30 EST on 7 March 2026, then 01:30 EST on 8 March (the night clocks spring forward).
    expect((await checkIn(p, new Date('2026-03-08T04:30:00Z'))).date).toBe('2026-03-07');
    expect((await checkIn(p, new Date('2026-03-08T06:30:00Z'))).date).toBe('2026-03-08');
    // 8 March 23:30 EDT is 9 March 03:30 UTC: still the 8th, so this is a second check-out of that day.
    expect((await checkOut(p, new Date('2026-03-09T03:30:00Z'))).date).toBe('2026-03-08');
    expect(await refusalStatus(checkOut(p, new Date('2026-03-09T03:45:00Z')))).toBe(409);
    // 1 November: 23:30 EST on the 1st is 04:30 UTC on the 2nd.
    expect((await checkIn(p, new Date('2026-11-02T04:30:00Z'))).date).toBe('2026-11-01');
  });
});

describe('who sees what', () => {
  it('history: inclusive range, newest first; 403 for somebody else as a member, 404 for nobody as a manager', async () => {
    const manager = await newMember();
    const report = await newMember({ managerId: manager.id });
    const other = await newMember();
    const today = (await api('POST', '/attendance/check-in', { token: report.token })).body.date as string;
    const own = await api('GET', `/attendance/history?from=${today}&to=${today}`, { token: report.token });
    expect(own.body.map((r: any) => r.date)).toEqual([today]);
    expect((await api('GET', '/attendance/history?to=2000-01-01', { token: report.token })).body).toEqual([]);
    expect((await api('GET', '/attendance/history?from=2026-02-30', { token: report.token })).status).toBe(400);
    expect((await api('GET', `/attendance/history?employeeId=${report.id}`, { token: other.token })).status).toBe(403);
    expect((await api('GET', `/attendance/history?employeeId=${other.id}`, { token: manager.token })).status).toBe(200);
    expect((await api('GET', `/attendance/history?employeeId=nobody-${uniq()}`, { token: manager.token })).status).toBe(
      404,
    );
    const a = await admin();
    expect((await api('GET', `/attendance/history?employeeId=nobody-${uniq()}`, { token: a.token })).status).toBe(404);
    const view = (await api('GET', '/attendance/today', { token: manager.token })).body;
    expect(view.canViewAll).toBe(true);
    expect(view.employees.find((r: any) => r.employeeId === report.id)).toMatchObject({
      status: 'PRESENT',
      employeeName: report.name,
      date: today,
    });
    expect(view.employees.find((r: any) => r.employeeId === other.id)).toMatchObject({
      status: 'NOT_CHECKED_IN',
      checkIn: null,
    });
  });
});
