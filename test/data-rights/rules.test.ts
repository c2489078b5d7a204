import { describe, expect, it } from 'vitest';
import { erasureOf } from '../../shared/data-rights/erasure.ts';
import { replacePerson } from '../../shared/data-rights/person-match.ts';
import { attributeKinds, dataRules, kindsWithoutRule } from '../../shared/data-rights/rules.ts';
import { carries } from '../../shared/data-rights/table-walk.ts';
import { declarations } from '../../shared/db/entity.ts';
import type { Item } from '../../shared/db/table.ts';
import { DocumentChange } from '../../shared/documents/entities.ts';
import { ROSTER, ROSTER_FIELDS, rosterRow } from '../../shared/people/roster-row.ts';

/** Every kind of item has a data-rights rule (shared/data-rights/rules.ts), so none can be forgotten. */
describe('data-rights rules', () => {
  it('cover every declared entity, and name none that is not declared', () => {
    expect(kindsWithoutRule()).toEqual([]);
    expect(Object.keys(dataRules).filter((name) => !declarations.has(name))).toEqual([]);
  });

  it('declare free-text and JSON attributes only for declared entities', () => {
    expect(Object.keys(attributeKinds).filter((name) => !declarations.has(name))).toEqual([]);
  });

  it('leave every grievance-channel kind untouched and out of the export', () => {
    const anon = [...declarations.values()].filter((d) => d.anon).map((d) => d.name);
    expect(anon.length).toBeGreaterThan(5);
    for (const name of anon) expect([name, dataRules[name]]).toEqual([name, { erase: 'untouched' }]);
  });

  it('find a person by whole values only: values, members, keys, `#` segments and `@[id]` tokens', () => {
    const id = '0b6f1c3e-1111-4222-8333-444455556666';
    const needles = { userId: id, email: 'Zed@Example.com' };
    expect(carries({ a: { b: [id] } }, needles)).toBe(true);
    expect(carries({ s: new Set(['a', id]) }, needles)).toBe(true);
    expect(carries({ [`row_${id}`]: [1] }, needles)).toBe(true);
    expect(carries({ list: `AUTHOR#${id}` }, needles)).toBe(true);
    expect(carries({ to: ' zed@example.COM' }, needles)).toBe(true);
    expect(carries({ entity: 'Post', content: `x @[${id}] y` }, needles)).toBe(true);
    // Never a substring: another address, another id, somebody's words.
    expect(carries({ to: 'dzed@example.com', cc: ['zed@example.com.au'] }, needles)).toBe(false);
    expect(carries({ a: `${id}0`, b: `x${id}` }, needles)).toBe(false);
    expect(carries({ entity: 'Post', content: `mail zed@example.com or ${id}` }, needles)).toBe(false);
    expect(carries({ entity: 'Post', content: 'zed@example.com' }, needles)).toBe(false);
    expect(carries({ a: 'someone else', n: 3, b: new Uint8Array([1, 2]) }, needles)).toBe(false);
  });

  it('replace a person exactly, keeping binary values, free text and other people', () => {
    const id = 'abc';
    const r = { needles: { userId: id, email: 'an@x.com' }, to: 'Z' };
    const out = replacePerson(
      {
        t: 'abc',
        k: 'POSTS#AUTHOR#abc',
        s: new Set(['abc', 'abcd']),
        m: { abc: ['xabcx'] },
        e: ['AN@x.com', 'dan@x.com', 'joan@x.com'],
        content: 'abc and @[abc], an@x.com',
        bin: new Uint8Array([7]),
        n: 1,
      },
      r,
      { text: ['content'] },
    );
    expect(out).toEqual({
      t: 'Z',
      k: 'POSTS#AUTHOR#Z',
      s: new Set(['Z', 'abcd']),
      m: { Z: ['xabcx'] },
      e: ['Z', 'dan@x.com', 'joan@x.com'],
      content: 'abc and @[Z], an@x.com',
      bin: new Uint8Array([7]),
      n: 1,
    });
    // JSON text (the change log's inline copy) is opened.
    expect(
      replacePerson({ recent: JSON.stringify([{ actorId: 'abc', aud: 'abcx' }]) }, r, { json: ['recent'] }),
    ).toEqual({
      recent: JSON.stringify([{ actorId: 'Z', aud: 'abcx' }]),
    });
  });
});

describe("a whole list's unfolded changes (DocumentChange)", () => {
  const subject = { userId: 'erased-1', email: 'Gone@Example.com', name: 'Gone Person', pseudonym: 'opaque-1' };
  const row = (over: Partial<Record<(typeof ROSTER_FIELDS)[number], unknown>>) =>
    rosterRow({
      name: 'Bystander',
      email: 'by@example.com',
      role: 'member',
      status: 'active',
      joinedAt: '2024-01-01T00:00:00.000Z',
      ...over,
    } as never);
  const change = (doc: string, key: string, r: unknown[] | null) =>
    DocumentChange.item({ doc, key, rev: 4, row: r, at: '2026-01-01T00:00:00.000Z' }) as unknown as Item;

  it("deletes only the person's own changes; another person's stays, without them, their own words kept", async () => {
    expect((await erasureOf(change(ROSTER, subject.userId, row({ name: subject.name })), subject))?.outcome).toBe(
      'deleted',
    );
    expect((await erasureOf(change('attendance-2026-01-01', subject.userId, ['t1', null]), subject))?.outcome).toBe(
      'deleted',
    );
    expect((await erasureOf(change(ROSTER, subject.userId, null), subject))?.outcome).toBe('deleted');
    // A bystander's change naming them as manager, with a title that equals their address (the bystander's words).
    const theirs = row({ managerId: subject.userId, title: subject.email, currentWork: 'planning' });
    const plan = await erasureOf(change(ROSTER, 'bystander-1', theirs), subject);
    expect(plan?.outcome).toBe('kept');
    expect(plan?.writes.some((w) => 'Delete' in w)).toBe(false);
    const values = plan?.writes.flatMap((w) => Object.values((w as any).Update?.ExpressionAttributeValues ?? {}));
    const rewritten = values?.find((v) => Array.isArray(v) && v.length === ROSTER_FIELDS.length && v !== theirs);
    expect(rewritten).toEqual(row({ managerId: null, title: subject.email, currentWork: 'planning' }));
    // A bystander's change that does not carry them, and their attendance, are not touched.
    expect(await erasureOf(change(ROSTER, 'bystander-2', row({})), subject)).toBeNull();
    expect(await erasureOf(change('attendance-2026-01-01', 'bystander-2', ['t1', 't2']), subject)).toBeNull();
  });
});
