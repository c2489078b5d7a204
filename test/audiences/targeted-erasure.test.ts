import { describe, expect, it } from 'vitest';
import { erasureOf } from '../../shared/data-rights/erasure.ts';
import type { Item } from '../../shared/db/table.ts';
import { Post, PostAudience, PostReader } from '../../shared/feed/entities.ts';
import { plainPost } from '../support/post-fields.ts';

/**
 * Erasure and targeted posts (docs/audiences.md, "Targeted content"): the erased person's place in
 * every frozen audience goes (their `PostReader` items), a bystander's stays; a targeted post's rule
 * loses their id from its `userIds` and keeps the rest.
 */
describe('targeted posts and an erased person', () => {
  const subject = { userId: 'erased-1', email: 'gone@example.com', name: 'Gone Person', pseudonym: 'opaque-1' };
  const at = '2026-01-01T00:00:00.000Z';
  const reader = (userId: string) =>
    PostReader.item({ postId: 'post-1', userId, how: 'publish', addedAt: at }) as unknown as Item;
  /** The values a plan's rewrite sets (`:s<i>`; its condition's values are the item as read). */
  const setValues = (plan: Awaited<ReturnType<typeof erasureOf>>) =>
    (plan?.writes ?? []).flatMap((w) =>
      Object.entries((w as any).Update?.ExpressionAttributeValues ?? {})
        .filter(([k]) => k.startsWith(':s'))
        .map(([, v]) => v),
    );

  it('deletes their reader items; a bystander’s, and one whose id contains theirs, stay', async () => {
    const mine = await erasureOf(reader(subject.userId), subject);
    expect(mine?.writes.some((w) => 'Delete' in w)).toBe(true);
    expect(await erasureOf(reader('bystander-1'), subject)).toBeNull();
    expect(await erasureOf(reader(`${subject.userId}-2`), subject)).toBeNull();
  });

  it("drops their id from a targeted post's rule, and only theirs", async () => {
    const post = Post.item({
      ...plainPost({ id: 'post-1', authorId: 'author-1', content: 'For a few', createdAt: at }),
      audience: { rule: { any: [{ userIds: ['bystander-1', subject.userId] }, { location: 'Berlin' }] } },
    }) as unknown as Item;
    const plan = await erasureOf(post, subject);
    expect(plan?.outcome).toBe('kept');
    expect(JSON.stringify(setValues(plan))).toContain('"userIds":["bystander-1"]');
    expect(JSON.stringify(setValues(plan))).not.toContain(`"${subject.userId}"`);
    // A bystander's targeted post that does not name them: untouched.
    const other = { ...post, audience: { rule: { userIds: ['bystander-1'] } } } as Item;
    expect(await erasureOf(other, subject)).toBeNull();
  });

  it('a frozen audience naming them keeps its rule under the opaque id', async () => {
    const state = PostAudience.item({
      postId: 'post-1',
      authorId: subject.userId,
      rule: { userIds: [subject.userId, 'bystander-1'] },
      audienceId: null,
      dynamic: false,
      cutoff: at,
      cursor: null,
      step: 1,
      sent: 2,
      createdAt: at,
    }) as unknown as Item;
    const plan = await erasureOf(state, subject);
    expect(plan?.outcome).toBe('kept');
    expect(JSON.stringify(setValues(plan))).toContain(subject.pseudonym);
    expect(JSON.stringify(setValues(plan))).not.toContain(`"${subject.userId}"`);
  });
});
