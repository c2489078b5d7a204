import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuditEntry } from '../../shared/audit/entities.ts';
import { type AuditDeclaration, audited } from '../../shared/audit/scope.ts';
import { DataExportClaim } from '../../shared/data-rights/entities.ts';
import { ABSENT } from '../../shared/db/entity.ts';
import { isConditionFailure, transact, write } from '../../shared/db/table.ts';

/**
 * The audit scope over the table's write hook (shared/audit/scope.ts, shared/db/table.ts), against the
 * test runtime's DynamoDB: the entry rides on the first successful write, once per request, whatever
 * the attempts; a failed write carries nothing.
 */
const declaration: AuditDeclaration = { action: 'test.claim.set', target: { params: ['userId'] } };
const request = (userId: string, requestId = randomUUID()) => ({
  requestId,
  receivedAt: Date.now(),
  actorId: 'admin-test',
  params: { userId },
});
const entryOf = (r: ReturnType<typeof request>) => {
  const at = new Date(r.receivedAt).toISOString();
  return AuditEntry.get({ month: at.slice(0, 7), at, requestId: r.requestId }, { consistent: true });
};
const entriesAbout = (userId: string) =>
  AuditEntry.queryAll({ index: 'byTarget', key: { targetId: userId } }).then((all) =>
    all.filter((e) => e.targetId === userId),
  );
const claim = (userId: string, exportId: string) => ({ userId, exportId, at: new Date().toISOString() });

describe('the audit entry riding on the first write', () => {
  it("turns a single update into a transaction of two, answering the update's new attributes", async () => {
    const userId = `u-${randomUUID()}`;
    const r = request(userId);
    const answer = await audited(declaration, r, () =>
      write(
        DataExportClaim.update(
          { userId },
          {
            UpdateExpression: 'SET exportId = :e, #at = :at',
            ExpressionAttributeNames: { '#at': 'at' },
            ExpressionAttributeValues: { ':e': 'x1', ':at': 'now' },
          },
        ),
      ),
    );
    expect(answer).toMatchObject({ exportId: 'x1', at: 'now' });
    expect(await entryOf(r)).toMatchObject({ action: 'test.claim.set', targetId: userId, changed: true });
  });

  it('writes one entry for a request whose write is attempted again, and none for a failed write', async () => {
    const userId = `u-${randomUUID()}`;
    const r = request(userId);
    // The first attempt fails its own condition (the claim exists): nothing recorded.
    await transact([DataExportClaim.put(claim(userId, 'e0'))]);
    const failed = await audited(declaration, r, () => write(DataExportClaim.put(claim(userId, 'e1'), ABSENT))).catch(
      (err: unknown) => err,
    );
    expect(isConditionFailure(failed)).toBe(true);
    expect(await entryOf(r)).toBeUndefined();
    // The same request again (a retried attempt): recorded once, and once more finds it there.
    await audited(declaration, r, () => transact([DataExportClaim.put(claim(userId, 'e2'))]));
    await audited(declaration, r, () => transact([DataExportClaim.put(claim(userId, 'e3'))]));
    expect((await DataExportClaim.get({ userId }, { consistent: true }))?.exportId).toBe('e3');
    expect(await entriesAbout(userId)).toHaveLength(1);
  });

  it('records a request that wrote nothing with changed: false, and rides only the first of several writes', async () => {
    const quiet = `u-${randomUUID()}`;
    const r = request(quiet);
    await audited(declaration, r, async () => undefined);
    expect(await entryOf(r)).toMatchObject({ changed: false, targetId: quiet });
    const busy = `u-${randomUUID()}`;
    const b = request(busy);
    await audited(declaration, b, async () => {
      await write(DataExportClaim.put(claim(busy, 'a')));
      await write(DataExportClaim.put(claim(busy, 'b')));
      await transact([DataExportClaim.put(claim(busy, 'c'))]);
    });
    expect(await entriesAbout(busy)).toHaveLength(1);
    // A refused request (its answer a failure) that wrote nothing records nothing.
    const refused = request(`u-${randomUUID()}`);
    await audited(
      declaration,
      refused,
      async () => 'refused',
      (x) => x !== 'refused',
    );
    expect(await entryOf(refused)).toBeUndefined();
  });

  it('waits for the write that creates the declared item, and takes its id as the target', async () => {
    const userId = `u-${randomUUID()}`;
    const r = request(userId);
    const created: AuditDeclaration = {
      action: 'test.claim.create',
      target: { created: 'DataExportClaim', createdField: 'userId' },
    };
    const other = `u-${randomUUID()}`;
    await audited(created, { ...r, params: {} }, async () => {
      await write(
        DataExportClaim.update(
          { userId: other },
          { UpdateExpression: 'SET exportId = :e', ExpressionAttributeValues: { ':e': 'u' } },
        ),
      );
      await write(DataExportClaim.put(claim(userId, 'made')));
    });
    expect(await entryOf(r)).toMatchObject({ targetId: userId, targetIds: [userId] });
    expect(await entriesAbout(other)).toEqual([]);
  });
});
