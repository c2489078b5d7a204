import { describe, expect, it } from 'vitest';
import { erasureOf } from '../../shared/data-rights/erasure.ts';
import { exportOf } from '../../shared/data-rights/export.ts';
import type { Item } from '../../shared/db/table.ts';
import { PostSeen, ReachDay, ReachSlice, ReachTotal, ReadReceiptChoice } from '../../shared/reach/entities.ts';

/**
 * A person's reach data under their data rights (docs/reach.md, Data rights): their marks and their
 * read-receipt choice are in their export and go with their erasure; a bystander's marks on the same
 * post stay, and the roll-ups keep every count (a manager's slice only changes the id it names).
 */
const ME = 'erased-1';
const BYSTANDER = 'bystander-1';
const subject = { userId: ME, email: 'gone@example.com', name: 'Gone Person', pseudonym: 'opaque-1' };
const shown = { postShown: async () => true };
const at = '2026-12-01T10:00:00.000Z';

const seen = (userId: string) =>
  ({
    ...PostSeen.key({ postId: 'p1', userId }),
    entity: PostSeen.name,
    postId: 'p1',
    userId,
    seenAt: at,
    reactedAt: at,
    ...PostSeen.indexAttributes({ postId: 'p1', userId, seenAt: at }),
  }) as unknown as Item;

const rollUp = (entity: { name: string; key: (k: any) => object }, key: Record<string, string>, extra = {}) =>
  ({ ...entity.key(key), entity: entity.name, ...key, seen: 7, reacted: 2, targeted: 9, ...extra }) as unknown as Item;

describe("a person's reach data under their data rights", () => {
  it('exports their own marks and choice, never a bystander’s', async () => {
    const mine = await exportOf(seen(ME), ME, shown);
    expect(mine?.section).toBe('seen');
    expect(mine?.view).toEqual({ postId: 'p1', userId: ME, seenAt: at, reactedAt: at });
    expect(await exportOf(seen(BYSTANDER), ME, shown)).toBeNull();
    const choice = ReadReceiptChoice.item({ userId: ME, optedOut: true, updatedAt: at }) as unknown as Item;
    expect((await exportOf(choice, ME, shown))?.view).toEqual({ userId: ME, optedOut: true, updatedAt: at });
    // Roll-ups are nobody's data.
    expect(await exportOf(rollUp(ReachTotal, { postId: 'p1' }), ME, shown)).toBeNull();
  });

  it('deletes their marks and choice; a bystander’s marks and every count stay', async () => {
    const plan = await erasureOf(seen(ME), subject);
    expect(plan?.writes.length).toBe(1);
    expect(plan?.writes.every((w) => 'Delete' in w)).toBe(true);
    const choice = ReadReceiptChoice.item({ userId: ME, optedOut: false, updatedAt: at }) as unknown as Item;
    expect((await erasureOf(choice, subject))?.writes.every((w) => 'Delete' in w)).toBe(true);
    // The bystander, whose id contains theirs or not: untouched.
    expect(await erasureOf(seen(BYSTANDER), subject)).toBeNull();
    expect(await erasureOf(seen(`${ME}-2`), subject)).toBeNull();
    // Totals and days carry no person: untouched.
    expect(await erasureOf(rollUp(ReachTotal, { postId: 'p1' }), subject)).toBeNull();
    expect(await erasureOf(rollUp(ReachDay, { postId: 'p1', day: '2026-12-01' }), subject)).toBeNull();
    // A slice of another value: untouched; the slice naming them as manager keeps its counts under the opaque id.
    expect(await erasureOf(rollUp(ReachSlice, { postId: 'p1', by: 'manager', value: BYSTANDER }), subject)).toBeNull();
    const managed = await erasureOf(rollUp(ReachSlice, { postId: 'p1', by: 'manager', value: ME }), subject);
    expect(managed?.outcome).toBe('kept');
    // Moved to the opaque id's key (the old one deleted, conditioned on what was read), counts whole.
    const put = managed?.writes.find((w) => 'Put' in w) as { Put: { Item: Item } } | undefined;
    expect(put?.Put.Item).toMatchObject({ value: subject.pseudonym, seen: 7, reacted: 2, targeted: 9 });
    expect(put?.Put.Item.sk).toBe(`SLICE#manager#${subject.pseudonym}`);
    expect(JSON.stringify(put)).not.toContain(ME);
  });
});
