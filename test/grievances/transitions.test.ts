import { describe, expect, it } from 'vitest';
import { STATUSES, type Status } from '../../shared/grievances/vocabulary.ts';
import { api, uniq } from '../support/api.ts';
import { changes, detail, expectStatus, move, raise, world } from './helpers.ts';

const finished = (s: Status) => s === 'resolved' || s === 'closed';
/** A way to reach each status from a new grievance (open). */
const pathTo: Record<Status, Status[]> = {
  open: [],
  in_review: ['in_review'],
  resolved: ['resolved'],
  closed: ['closed'],
};

/** Every move between the four statuses, the same one included. */
describe('grievances: every status transition', () => {
  for (const from of STATUSES) {
    for (const to of STATUSES) {
      it(`${from} -> ${to}`, async () => {
        const { raiser, other, handler } = await world();
        const g = await raise(raiser);
        for (const step of pathTo[from]) await move(handler, g.id, step);
        const before = await detail(other, g.id);
        expect(before.status).toBe(from);
        const movesBefore = (await changes(other, g.id)).length;
        const reason = `Move ${from} to ${to} ${uniq()}`;
        const started = Date.now();
        const moved = expectStatus(
          await api('PATCH', `/admin/grievances/${g.id}/status`, {
            token: handler.token,
            body: { status: to, reason },
          }),
          200,
        );
        expect(moved.status).toBe(to);
        expect(moved.statusNote).toBe(reason);
        expect(Date.parse(moved.statusNoteAt)).toBeGreaterThanOrEqual(started - 5);
        expect(moved.updatedAt).toBe(moved.statusNoteAt);
        if (!finished(to))
          expect(moved.resolvedAt).toBeNull(); // reopened or in review: cleared
        else if (finished(from))
          expect(moved.resolvedAt).toBe(before.resolvedAt); // kept between finished statuses
        else expect(Date.parse(moved.resolvedAt)).toBeGreaterThanOrEqual(started - 5); // set on the first finish
        const history = await changes(other, g.id);
        expect(history.length).toBe(movesBefore + 1);
        expect(history[0]).toMatchObject({ fromStatus: from, toStatus: to, reason, changedByName: 'Grievance team' });
        const admin = await changes(handler, g.id, { admin: true });
        expect(admin[0].changedBy).toMatchObject({ id: handler.id, email: handler.email });
        expect(await detail(raiser, g.id)).toMatchObject({
          status: to,
          resolvedAt: moved.resolvedAt,
          statusNote: reason,
        });
      });
    }
  }

  it('a move without a valid reason is a 400 and nothing moves', async () => {
    const { raiser, handler } = await world();
    const g = await raise(raiser);
    for (const body of [
      { status: 'closed' },
      { status: 'closed', reason: 'ab' },
      { status: 'closed', reason: '   ' },
      { status: 'closed', reason: 'x'.repeat(1001) },
    ]) {
      expect((await api('PATCH', `/admin/grievances/${g.id}/status`, { token: handler.token, body })).status).toBe(400);
    }
    expect((await detail(raiser, g.id)).status).toBe('open');
    expect((await changes(raiser, g.id)).length).toBe(1);
  });
});
