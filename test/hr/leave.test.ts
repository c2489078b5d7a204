import { describe, expect, it } from 'vitest';
import { admin, api, newMember, uniq } from '../support/api.ts';

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const leave = (managerId: string, fields: Record<string, unknown> = {}) => ({
  leaveType: 'Annual leave',
  fromDate: day(30),
  toDate: day(31),
  reason: `Trip ${uniq()}`,
  selectedManagerId: managerId,
  ...fields,
});
const team = async () => {
  const manager = await newMember();
  const employee = await newMember({ managerId: manager.id });
  return { manager, employee };
};
const context = async (token: string) => (await api('GET', '/leave/context', { token })).body;

describe('deciding a request', () => {
  it('leaves one decision when the manager and super admins decide at once', async () => {
    const { manager, employee } = await team();
    const sa = await newMember({ role: 'super_admin' });
    const r = (await api('POST', '/leave/requests', { token: employee.token, body: leave(manager.id) })).body;
    const attempts = Array.from({ length: 10 }, (_, i) => ({
      token: i % 2 ? manager.token : sa.token,
      status: i % 3 ? 'APPROVED' : 'DISAPPROVED',
    }));
    const results = await Promise.all(
      attempts.map((a) =>
        api('PATCH', `/leave/requests/${r.id}/process`, { token: a.token, body: { status: a.status, comment: 'ok' } }),
      ),
    );
    const won = results.filter((x) => x.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((x) => x.status === 409)).toHaveLength(9);
    const [stored] = (await api('GET', '/leave/requests', { token: employee.token })).body;
    expect(stored).toMatchObject({
      status: won[0].body.status,
      processedById: won[0].body.processedById,
      processComment: 'ok',
    });
    expect((await api('DELETE', `/leave/requests/${r.id}`, { token: employee.token })).status).toBe(404);
  });

  it('answers 404 to anybody but the selected manager and super admins, and for unknown ids', async () => {
    const { manager, employee } = await team();
    const otherManager = (await team()).manager;
    const r = (await api('POST', '/leave/requests', { token: employee.token, body: leave(manager.id) })).body;
    expect(
      (
        await api('PATCH', `/leave/requests/${r.id}/process`, {
          token: otherManager.token,
          body: { status: 'APPROVED' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await api('PATCH', `/leave/requests/${r.id}/process`, { token: employee.token, body: { status: 'APPROVED' } }))
        .status,
    ).toBe(404);
    expect(
      (await api('PATCH', `/leave/requests/${r.id}/process`, { token: manager.token, body: { status: 'PENDING' } }))
        .status,
    ).toBe(400);
    expect((await api('DELETE', `/leave/requests/${r.id}`, { token: employee.token })).text).toBe('');
  });
});

describe('pendingCount and seen marks', () => {
  it('counts routed pending requests per viewer until each viewer marks them seen', async () => {
    const { manager, employee } = await team();
    const sa = await newMember({ role: 'super_admin' });
    const sa2 = await newMember({ role: 'super_admin' });
    await api('POST', '/leave/requests/seen', { token: sa.token });
    await api('POST', '/leave/requests/seen', { token: sa2.token });
    const r1 = (await api('POST', '/leave/requests', { token: employee.token, body: leave(manager.id) })).body;
    await api('POST', '/leave/requests', { token: employee.token, body: leave(sa.id) });
    expect((await context(manager.token)).pendingCount).toBe(1);
    expect((await context(sa.token)).pendingCount).toBeGreaterThanOrEqual(2); // every pending request, for a super admin
    expect((await api('POST', '/leave/requests/seen', { token: sa.token })).status).toBe(200);
    expect((await context(sa.token)).pendingCount).toBe(0);
    expect((await context(sa2.token)).pendingCount).toBeGreaterThanOrEqual(2); // seen marks are per viewer
    await api('PATCH', `/leave/requests/${r1.id}/process`, { token: manager.token, body: { status: 'APPROVED' } });
    expect((await context(manager.token)).pendingCount).toBe(0); // decided requests are no longer pending
  });
});

describe('who requests go to', () => {
  it('offers active managers and super admins only, and refuses anybody else', async () => {
    const { manager, employee } = await team();
    const a = await admin();
    expect((await context(employee.token)).managers.map((m: any) => m.id)).toContain(manager.id);
    await api('PATCH', `/admin/members/${manager.id}/status`, { token: a.token, body: { status: 'deactivated' } });
    const ctx = await context(employee.token);
    expect(ctx.managers.map((m: any) => m.id)).not.toContain(manager.id);
    expect(ctx.currentManager?.id).toBe(manager.id);
    expect((await api('POST', '/leave/requests', { token: employee.token, body: leave(manager.id) })).status).toBe(400);
    expect((await api('POST', '/leave/requests', { token: employee.token, body: leave(employee.id) })).status).toBe(
      400,
    );
    expect(
      (
        await api('POST', '/leave/requests', {
          token: employee.token,
          body: leave(a.user.id, { fromDate: '2026-02-30' }),
        })
      ).status,
    ).toBe(400);
    const created = await api('POST', '/leave/requests', {
      token: employee.token,
      body: leave(a.user.id, { fromDate: day(-3), toDate: day(-1) }),
    });
    expect(created.status).toBe(201); // a start in the past is allowed
    const history = await api(
      'GET',
      `/leave/requests?scope=history&employeeId=${employee.id}&from=${day(-2)}&to=${day(-2)}`,
      { token: a.token },
    );
    expect(history.body.map((x: any) => x.id)).toEqual([created.body.id]);
    expect((await api('GET', '/leave/requests?scope=mine', { token: employee.token })).status).toBe(400);
  });
});
