import { describe, expect, it } from 'vitest';
import { dataRules, kindsWithoutRule } from '../../shared/data-rights/rules.ts';
import { carries, replaceEverywhere } from '../../shared/data-rights/table-walk.ts';
import { declarations } from '../../shared/db/entity.ts';

/** Every kind of item has a data-rights rule (shared/data-rights/rules.ts), so none can be forgotten. */
describe('data-rights rules', () => {
  it('cover every declared entity, and name none that is not declared', () => {
    expect(kindsWithoutRule()).toEqual([]);
    expect(Object.keys(dataRules).filter((name) => !declarations.has(name))).toEqual([]);
  });

  it('leave every grievance-channel kind untouched and out of the export', () => {
    const anon = [...declarations.values()].filter((d) => d.anon).map((d) => d.name);
    expect(anon.length).toBeGreaterThan(5);
    for (const name of anon) expect([name, dataRules[name]]).toEqual([name, { erase: 'untouched' }]);
  });

  it('find a person in strings, lists, sets, map keys and values at any depth, and nowhere else', () => {
    const id = '0b6f1c3e-1111-4222-8333-444455556666';
    const needles = { userId: id, email: 'Zed@Example.com' };
    expect(carries({ a: { b: [`x @[${id}] y`] } }, needles)).toBe(true);
    expect(carries({ s: new Set(['a', id]) }, needles)).toBe(true);
    expect(carries({ [`row_${id}`]: [1] }, needles)).toBe(true);
    expect(carries({ to: 'zed@example.COM' }, needles)).toBe(true);
    expect(carries({ a: 'someone else', n: 3, b: new Uint8Array([1, 2]) }, needles)).toBe(false);
  });

  it('replace a person everywhere, keeping binary values and other text', () => {
    const id = 'abc';
    const out = replaceEverywhere(
      { t: 'abc and abc', s: new Set(['abc']), m: { abc: ['xabcx'] }, bin: new Uint8Array([7]), n: 1 },
      id,
      'Z',
    );
    expect(out).toEqual({ t: 'Z and Z', s: new Set(['Z']), m: { Z: ['xZx'] }, bin: new Uint8Array([7]), n: 1 });
    expect(replaceEverywhere('Mail A.b@X.com', 'a.b@x.com', 'Z', { ignoreCase: true })).toBe('Mail Z');
    // The e-mail's dot is a dot, not "any character".
    expect(replaceEverywhere('aXb@x.com', 'a.b@x.com', 'Z', { ignoreCase: true })).toBe('aXb@x.com');
  });
});
