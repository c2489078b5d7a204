import { describe, expect, it } from 'vitest';
import { expectStatus, person } from '../people/helpers.ts';
import { admin, api, settled, uniq } from '../support/api.ts';

/**
 * Reach of a targeted post (docs/reach.md, docs/audiences.md): it targets the people its audience selected
 * at publish, not the company; a person outside the audience cannot mark it seen.
 */
describe('reach of a targeted post', () => {
  it('targets its audience at publish, and counts no mark of a person outside it', async () => {
    const tag = uniq();
    const place = `Targeted ${tag}`;
    const inside = await Promise.all(
      [0, 1, 2].map((i) => person({ name: `In ${i} ${tag}` }, { profile: { location: place } })),
    );
    const outside = await person({ name: `Out ${tag}` }, { profile: { location: `Elsewhere ${tag}` } });
    const a = await admin();
    const post = expectStatus(
      await api('POST', '/posts', {
        token: a.token,
        body: { content: `For ${place} only`, audience: { rule: { location: place } } },
      }),
      201,
      'targeted post',
    );
    await settled();

    for (const p of [outside, inside[0]!, inside[1]!])
      expect((await api('POST', '/posts/seen', { token: p.token, body: { postIds: [post.id] } })).status).toBe(204);
    await settled();

    const reach = expectStatus(
      await api('GET', `/admin/posts/${post.id}/reach?by=location`, { token: a.token }),
      200,
      'reach',
    );
    expect([reach.targeted, reach.seen]).toEqual([3, 2]);
    expect(reach.slices.map((s: { value: string }) => s.value)).not.toContain(`Elsewhere ${tag}`);
  });
});
