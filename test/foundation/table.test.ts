import { describe, expect, it } from 'vitest';
import { entity, keyOnly, shape } from '../../shared/db/entity.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { getItem, queryPage, transact, write } from '../../shared/db/table.ts';
import { DomainError } from '../../shared/errors.ts';
import { uniq } from '../support/api.ts';

/** Items of this test only, declared as the domain's are. */
const TestItem = entity({
  name: 'TestItem',
  fields: shape<{ partition: string; n: number }>(),
  key: { pk: ['partition'], sk: ['I', { field: 'n', as: (n: number) => String(n).padStart(4, '0') }] },
});
const TestCounter = entity({
  name: 'TestCounter',
  fields: shape<{ n: number }>(),
  keyOnly: keyOnly<{ partition: string }>('partition'),
  key: { pk: ['partition'], sk: ['COUNT'] },
  inPlace: true,
});

async function seed(partition: string, n: number) {
  for (let i = 0; i < n; i++) await write(TestItem.put({ partition, n: i }));
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
    const partition = `TEST#${uniq()}`;
    await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        transact([TestItem.create({ partition, n }), TestCounter.add({ partition }, { n: 1 })]),
      ),
    );
    expect((await TestCounter.get({ partition }, { consistent: true }))?.n).toBe(50);
  });

  it('writes one entry alone: an update answers the new item, a lone condition check is refused', async () => {
    const partition = `TEST#${uniq()}`;
    await write(TestCounter.add({ partition }, { n: 2 }));
    expect(await write(TestCounter.add({ partition }, { n: 3 }))).toMatchObject({ n: 5, entity: 'TestCounter' });
    expect(await write(TestCounter.add({ partition }, { n: 1 }), { returnValues: 'NONE' })).toBeUndefined();
    await write(TestItem.put({ partition, n: 7 }));
    await write(TestItem.remove({ partition, n: 7 }));
    expect(await getItem(TestItem.key({ partition, n: 7 }), true)).toBeUndefined();
    await expect(
      write(TestCounter.check({ partition }, { ConditionExpression: 'attribute_exists(pk)' })),
    ).rejects.toThrow(/condition check alone/);
  });

  it('makes time-sortable ids', () => {
    const a = newSortableId(new Date(1_000_000));
    const b = newSortableId(new Date(2_000_000));
    expect(a < b).toBe(true);
    expect(a).toHaveLength(22);
  });
});
