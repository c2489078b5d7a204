import { describe, expect, it } from 'vitest';
import { createPost, image, upload } from '../feed/helpers.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';

const counts = async (token: string) => (await api('GET', '/admin/website-posts/counts', { token })).body;
const approve = (token: string, id: string, headers: Record<string, string> = {}) =>
  api('POST', `/admin/website-posts/${id}/approve`, { token, headers });

describe('office updates: the public privacy rules', () => {
  it('names people only by name, title and image: no ids, no e-mail, no tokens anywhere in the answer', async () => {
    const boss = await admin();
    const a = await newMember({ title: 'Office Manager' });
    const b = await newMember({ title: 'Designer' });
    const p = await createPost(a.token, {
      content: `Thanks @[${b.id}] <script>x</script> #Kudos${uniq()}`,
      recognition: { recipientId: b.id, category: 'teamwork', message: 'Great' },
    });
    expect((await approve(boss.token, p.id)).status).toBe(200);
    const one = await api('GET', `/public/office-updates/${p.id}`);
    expect(one.status).toBe(200);
    for (const secret of [a.id, b.id, a.email, b.email, a.token, boss.token]) expect(one.text).not.toContain(secret);
    expect(one.body.content.startsWith(`Thanks ${b.name} <script>x</script> #Kudos`)).toBe(true);
    expect(one.body.author).toEqual({ name: a.name, title: 'Office Manager', image: null });
    expect(one.body.recognition.recipient).toEqual({ name: b.name, title: 'Designer', image: null });
    const list = await api('GET', '/public/office-updates?limit=24');
    for (const secret of [a.id, b.id, a.email, b.email]) expect(list.text).not.toContain(secret);
  });

  it('signs image renditions (1200 and 400) that load without a session', async () => {
    const boss = await admin();
    const a = await newMember();
    const big = (await upload(a.token, await image(1600, 800), 'big.png', 'image/png')).body;
    const small = (await upload(a.token, await image(200, 100), 'small.png', 'image/png')).body;
    const p = await createPost(a.token, { content: 'pictures', images: [big.path, small.path] });
    expect((await approve(boss.token, p.id)).status).toBe(200);
    const one = (await api('GET', `/public/office-updates/${p.id}`)).body;
    expect(one.images).toHaveLength(2);
    expect(one.images[0]).toMatchObject({ width: 1200, height: 600 });
    expect(one.images[1]).toMatchObject({ width: 200, height: 100, thumbnailUrl: null });
    for (const url of [one.images[0].url, one.images[0].thumbnailUrl, one.images[1].url]) {
      expect(url).toMatch(/X-Amz-Expires=86400/);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
    }
  });

  it('x-reviewer is ignored on session calls: the reviewer is the super admin', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const a = await newMember();
    const p = await createPost(a.token, { content: 'reviewed' });
    const w = await approve(boss.token, p.id, { 'x-reviewer': 'Somebody Else' });
    expect(w.body.review.reviewer).toBe(boss.name);
  });

  it('counts follow hiding, unhiding and deletion; a hidden post leaves the admin list too', async () => {
    const boss = await admin();
    const a = await newMember();
    const p = await createPost(a.token, { content: `counted ${uniq()}` });
    expect((await approve(boss.token, p.id)).status).toBe(200);
    const before = await counts(boss.token);
    await api('POST', `/admin/posts/${p.id}/hide`, { token: boss.token });
    expect((await counts(boss.token)).approved - before.approved).toBe(-1);
    const listed = (await api('GET', '/admin/website-posts?status=approved&limit=50', { token: boss.token })).body
      .items;
    expect(listed.some((x: any) => x.id === p.id)).toBe(false);
    expect((await approve(boss.token, p.id)).status).toBe(404);
    await api('POST', `/admin/posts/${p.id}/unhide`, { token: boss.token });
    expect((await counts(boss.token)).approved - before.approved).toBe(0);
    expect((await api('GET', `/public/office-updates/${p.id}`)).status).toBe(200);
    await api('DELETE', `/posts/${p.id}`, { token: a.token });
    expect((await counts(boss.token)).approved - before.approved).toBe(-1);
    expect((await approve(boss.token, p.id)).status).toBe(404);
  });

  it('shares are not website candidates; the public list refuses bad paging', async () => {
    const boss = await admin();
    const a = await newMember();
    const b = await newMember();
    const p = await createPost(a.token, { content: 'original' });
    const s = await api('POST', `/posts/${p.id}/share`, { token: b.token, body: {} });
    expect(s.status).toBe(201);
    expect((await approve(boss.token, s.body.id)).status).toBe(404);
    expect((await api('GET', '/public/office-updates?limit=0')).status).toBe(400);
    expect((await api('GET', '/public/office-updates?cursor=forged')).status).toBe(400);
    expect((await api('GET', '/public/office-updates?limit=100')).body.items.length).toBeLessThanOrEqual(24);
  });
});
