import { describe, expect, it } from 'vitest';
import { Audience } from '../../shared/audiences/entities.ts';
import { checkRule, type Rule } from '../../shared/audiences/rule.ts';
import { erasureOf } from '../../shared/data-rights/erasure.ts';
import type { Item } from '../../shared/db/table.ts';

/**
 * Erasure of a person named in an audience (docs/people-data.md, docs/audiences.md "Erasure"): their id
 * leaves the rule's `userIds`, nothing else of the rule or of any other audience changes.
 */
describe('an audience naming an erased person', () => {
  const subject = { userId: 'erased-1', email: 'gone@example.com', name: 'Gone Person', pseudonym: 'opaque-1' };
  const audience = (rule: Rule, extra: Record<string, unknown> = {}) =>
    Audience.item({
      id: `aud-${Math.random()}`,
      name: 'Berlin engineers',
      nameLower: 'berlin engineers',
      rule,
      count: 3,
      countedAt: '2026-01-01T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      rev: 2,
      createdBy: 'admin-1',
      actorId: 'admin-1',
      ...extra,
    }) as unknown as Item;
  /** The values a plan's rewrite sets (`:s<i>`; its condition's values are the item as read). */
  const setValues = (plan: Awaited<ReturnType<typeof erasureOf>>) =>
    (plan?.writes ?? []).flatMap((w) =>
      Object.entries((w as any).Update?.ExpressionAttributeValues ?? {})
        .filter(([k]) => k.startsWith(':s'))
        .map(([, v]) => v),
    );
  /** The rule a plan's rewrite sets. */
  const rewrittenRule = (plan: Awaited<ReturnType<typeof erasureOf>>) =>
    setValues(plan).find(
      (v: any) => v && typeof v === 'object' && !Array.isArray(v) && ('all' in v || 'userIds' in v || 'any' in v),
    );

  it("drops only their id from `userIds`, wherever it is in the rule; the bystander's id and the rest stay", async () => {
    const rule: Rule = {
      all: [
        { department: 'engineering' },
        { any: [{ userIds: ['bystander-1', subject.userId, 'bystander-2'] }, { location: 'Berlin' }] },
      ],
    };
    const plan = await erasureOf(audience(rule), subject);
    expect(plan?.outcome).toBe('kept');
    expect(plan?.writes.some((w) => 'Delete' in w)).toBe(false);
    expect(rewrittenRule(plan)).toEqual({
      all: [
        { department: 'engineering' },
        { any: [{ userIds: ['bystander-1', 'bystander-2'] }, { location: 'Berlin' }] },
      ],
    });
    // The stored form erasure leaves is still a rule the service reads (an empty `userIds` selects nobody).
    const alone = await erasureOf(audience({ userIds: [subject.userId] }), subject);
    expect(rewrittenRule(alone)).toEqual({ userIds: [] });
  });

  it("leaves a bystander's audience, and one that does not name them, untouched", async () => {
    expect(await erasureOf(audience({ userIds: ['bystander-1'] }), subject)).toBeNull();
    // Ids that contain theirs are other people: matched whole, never as text.
    expect(await erasureOf(audience({ userIds: [`${subject.userId}-2`, `x${subject.userId}`] }), subject)).toBeNull();
    expect(await erasureOf(audience({ all: [{ role: 'member' }, { location: 'Paris' }] }), subject)).toBeNull();
    // Created by another admin, naming a bystander as manager: not theirs.
    expect(await erasureOf(audience({ managerId: 'bystander-1', chain: true }), subject)).toBeNull();
  });

  it('an audience they created as a super admin keeps its rule, under the opaque id', async () => {
    const plan = await erasureOf(
      audience({ userIds: ['bystander-1'] }, { createdBy: subject.userId, actorId: subject.userId }),
      subject,
    );
    expect(plan?.outcome).toBe('kept');
    const values = setValues(plan);
    expect(values).toContain(subject.pseudonym);
    expect(values).not.toContain(subject.userId);
    expect(rewrittenRule(plan)).toBeUndefined();
  });
});

describe('rule checks', () => {
  it('accept every kind, and name the place of each problem', () => {
    const ok: Rule[] = [
      { all: [{ department: 'engineering' }, { not: { role: 'super_admin' } }] },
      { any: [{ teamId: 't1' }, { scimGroup: 'Platform' }, { location: 'Berlin' }] },
      { managerId: 'm1', chain: true },
      { managerId: 'm1' },
      { userIds: ['a', 'b'] },
    ];
    for (const rule of ok) expect(checkRule(rule).problems).toEqual([]);
    const problems = (v: unknown) => checkRule(v).problems.map((p) => `${p.path.join('.')}: ${p.message}`);
    expect(problems({ all: [{ department: 'marketing' }] })[0]).toMatch(/^all\.0\.department: must be one of/);
    expect(problems({ department: 'engineering', location: 'Berlin' })[0]).toMatch(/exactly one of/);
    expect(problems({ managerId: 'm', chain: 'yes' })).toEqual(['chain: must be true or false']);
    expect(problems({ location: ' Berlin' })).toEqual(['location: must not begin or end with blanks']);
    let deep: unknown = { role: 'member' };
    for (let i = 0; i < 8; i++) deep = { not: deep };
    expect(problems(deep).join()).toMatch(/at most 8 levels/);
    expect(problems({ any: Array.from({ length: 100 }, () => ({ role: 'member' })) }).join()).toMatch(
      /at most 100 nodes/,
    );
    expect(problems({ userIds: Array.from({ length: 1001 }, (_, i) => `u${i}`) }).join()).toMatch(
      /at most 1000 people/,
    );
    expect(problems({ userIds: ['a', 'a'] })).toEqual(['userIds: must not name a person twice']);
  });
});
