import { describe, expect, it } from 'vitest';
import { newSortableId } from '../../shared/db/ids.ts';
import { putMany } from '../../shared/db/table.ts';
import { type LeaveItem, LeaveRequest, type LeaveStatus } from '../../shared/hr/entities.ts';
import { companyDate } from '../../shared/util/time.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';
import { allLinkPages } from '../support/link-pages.ts';

/**
 * `GET /leave/requests` answers a window (decisions §4): without `from`, the requests whose `toDate`
 * is at most 366 days ago; at most 500 an answer, newest first, with `Link: <…cursor=…>; rel="next"`
 * for the rest. Through the local runtime.
 */
const DAY = 86_400_000;
const today = () => Date.parse(`${companyDate()}T00:00:00Z`);
const day = (offset: number) => new Date(today() + offset * DAY).toISOString().slice(0, 10);

/** A request stored as the service stores it, made `madeDaysAgo` days ago. */
function request(
  employeeId: string,
  selectedManagerId: string,
  madeMsAgo: number,
  fields: Partial<LeaveItem> & { fromDate: string; toDate: string },
): LeaveItem {
  const made = new Date(Date.now() - madeMsAgo);
  return LeaveRequest.item({
    id: newSortableId(made),
    employeeId,
    leaveType: 'Annual leave',
    reason: `Trip ${uniq()}`,
    selectedManagerId,
    status: 'PENDING' as LeaveStatus,
    processedById: null,
    processedAt: null,
    processComment: null,
    createdAt: made.toISOString(),
    actorId: employeeId,
    ...fields,
  });
}

const ids = (list: { id: string }[]) => list.map((x) => x.id);

const allPages = (path: string, token: string) =>
  allLinkPages<{ id: string }>(path, token, /^\/api\/v1\/leave\/requests\?/);

describe('leave: the default window', () => {
  it('covers the requests ending at most 366 days ago; older ones need `from`', async () => {
    const manager = await newMember();
    const employee = await newMember({ managerId: manager.id });
    const a = await admin();
    // Made through the API: a leave long past (retroactive), one just inside the window.
    const post = (fromDate: string, toDate: string) =>
      api('POST', '/leave/requests', {
        token: employee.token,
        body: { leaveType: 'Annual leave', fromDate, toDate, reason: uniq(), selectedManagerId: manager.id },
      });
    const old = (await post(day(-405), day(-400))).body;
    const recent = (await post(day(-370), day(-365))).body;
    // Stored two years ago: one that ended then, and one made far ahead that ends next week.
    const twoYearsAgo = 730 * DAY;
    const longPast = request(employee.id, manager.id, twoYearsAgo + DAY, { fromDate: day(-729), toDate: day(-728) });
    const farAhead = request(employee.id, manager.id, twoYearsAgo, { fromDate: day(5), toDate: day(7) });
    await putMany([longPast, farAhead]);

    const expectDefault = [recent.id, farAhead.id];
    const own = await api('GET', '/leave/requests', { token: employee.token });
    expect(own.headers.get('link')).toBeNull();
    expect(ids(own.body)).toEqual(expectDefault);
    const history = await api('GET', '/leave/requests?scope=history', { token: manager.token });
    expect(ids(history.body)).toEqual(expectDefault);
    const forAdmin = await api('GET', `/leave/requests?scope=history&employeeId=${employee.id}`, { token: a.token });
    expect(ids(forAdmin.body)).toEqual(expectDefault);
    const everybody = (await allPages('/leave/requests?scope=history', a.token)).flat();
    expect(ids(everybody)).toEqual(expect.arrayContaining(expectDefault));
    expect(ids(everybody)).not.toContain(old.id);
    expect(ids(everybody)).not.toContain(longPast.id);

    const withFrom = await api('GET', `/leave/requests?from=${day(-800)}`, { token: employee.token });
    expect(ids(withFrom.body)).toEqual([recent.id, old.id, farAhead.id, longPast.id]);
    const inside = await api('GET', `/leave/requests?scope=history&from=${day(-410)}&to=${day(-390)}`, {
      token: manager.token,
    });
    expect(ids(inside.body)).toEqual([old.id]);
  });
});

describe('leave: pages of at most 500', () => {
  it('gives every request exactly once, newest first, and keeps the filters exact', async () => {
    const manager = await newMember();
    const employee = await newMember({ managerId: manager.id });
    const a = await admin();
    const type = `Study ${uniq()}`;
    // 1,030 requests made over the last 300 days (one every 7 hours), every fourth of another type,
    // every third approved; a few of them made far ahead of their leave.
    const made = Array.from({ length: 1030 }, (_, i) => {
      const madeDaysAgo = (i * 7) / 24;
      const starts = Math.round(-madeDaysAgo + (i % 50 === 0 ? 90 : 10));
      return request(employee.id, manager.id, i * 7 * 3600_000, {
        fromDate: day(starts),
        toDate: day(starts + 1),
        leaveType: i % 4 === 0 ? type : 'Annual leave',
        status: i % 3 === 0 ? 'APPROVED' : 'PENDING',
      });
    });
    await putMany(made);
    const newestFirst = [...made].sort((x, y) => (x.id < y.id ? 1 : -1));

    const pages = await allPages('/leave/requests', employee.token);
    expect(pages.map((p) => p.length)).toEqual([500, 500, 30]);
    expect(ids(pages.flat())).toEqual(ids(newestFirst));

    const history = (await allPages('/leave/requests?scope=history', manager.token)).flat();
    expect(ids(history)).toEqual(ids(newestFirst));
    const byPerson = (await allPages(`/leave/requests?scope=history&employeeId=${employee.id}`, a.token)).flat();
    expect(ids(byPerson)).toEqual(ids(newestFirst));

    const ofType = (
      await allPages(`/leave/requests?scope=history&leaveType=${encodeURIComponent(type)}`, a.token)
    ).flat();
    expect(ids(ofType)).toEqual(ids(newestFirst.filter((r) => r.leaveType === type)));
    const approved = (await allPages('/leave/requests?scope=history&status=APPROVED', manager.token)).flat();
    expect(ids(approved)).toEqual(ids(newestFirst.filter((r) => r.status === 'APPROVED')));
    const pending = (
      await allPages(`/leave/requests?scope=history&status=PENDING&employeeId=${employee.id}`, a.token)
    ).flat();
    expect(ids(pending)).toEqual(ids(newestFirst.filter((r) => r.status === 'PENDING')));
    const pendingOfType = (
      await allPages(`/leave/requests?status=PENDING&leaveType=${encodeURIComponent(type)}`, employee.token)
    ).flat();
    expect(ids(pendingOfType)).toEqual(ids(newestFirst.filter((r) => r.status === 'PENDING' && r.leaveType === type)));
  }, 120_000);
});
