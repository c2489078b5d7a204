import { describe, expect, it } from 'vitest';
import { addToCounter } from '../../shared/db/counters.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { getItem, putItem, queryPage, transact } from '../../shared/db/table.ts';
import { DomainError } from '../../shared/errors.ts';
import { uniq } from '../support/api.ts';

async function seed(pk: string, n: number) {
  for (let i = 0; i < n; i++) await putItem({ pk, sk: `I#${String(i).padStart(4, '0')}`, entity: 'TestItem', n: i });
}

describe('table module', () => {
  it('pages a partition with sealed cursors and a null cursor exactly at the end', async () => {
    const pk = `TEST#${uniq()}`;
    await seed(pk, 45);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await queryPage({ pk, skPrefix: 'I#', limit: 15, cursor });
      seen.push(...page.items.map((i) => i.n));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => i));
  });

  it('pages backwards too', async () => {
    const pk = `TEST#${uniq()}`;
    await seed(pk, 5);
    const first = await queryPage({ pk, limit: 3, forward: false });
    expect(first.items.map((i) => i.n)).toEqual([4, 3, 2]);
    const second = await queryPage({ pk, limit: 3, forward: false, cursor: first.nextCursor! });
    expect(second.items.map((i) => i.n)).toEqual([1, 0]);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a cursor of another partition', async () => {
    const a = `TEST#${uniq()}`;
    const b = `TEST#${uniq()}`;
    await seed(a, 3);
    await seed(b, 3);
    const page = await queryPage({ pk: a, limit: 1 });
    await expect(queryPage({ pk: b, limit: 1, cursor: page.nextCursor! })).rejects.toBeInstanceOf(DomainError);
  });

  it('keeps counters exact under 50 concurrent transactions', async () => {
    const key = { pk: `TEST#${uniq()}`, sk: 'COUNT' };
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        transact([{ Put: { Item: { pk: key.pk, sk: `I#${i}`, entity: 'TestItem' } } }, addToCounter(key, 'n', 1)]),
      ),
    );
    expect((await getItem<{ n: number }>(key, true))?.n).toBe(50);
  });

  it('makes time-sortable ids', () => {
    const a = newSortableId(new Date(1_000_000));
    const b = newSortableId(new Date(2_000_000));
    expect(a < b).toBe(true);
    expect(a).toHaveLength(22);
  });
});
