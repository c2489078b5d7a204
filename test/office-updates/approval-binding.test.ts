import { describe, expect, it } from 'vitest';
import { createPost } from '../feed/helpers.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';

/*
 * An approval can be bound to what the reviewer saw: approve with If-Unmodified-Since set to the
 * Date of the answer that showed the post. An author's edit since then is a 409 and publishes nothing.
 */
const approve = (token: string, id: string, headers: Record<string, string> = {}) =>
  api('POST', `/admin/website-posts/${id}/approve`, { token, headers });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pending queue as a reviewer sees it, with the moment of that view (its Date header). */
async function review(token: string, id: string) {
  const res = await api('GET', '/admin/website-posts?status=pending&limit=50', { token });
  expect(res.status).toBe(200);
  const date = res.headers.get('date');
  expect(date).toBeTruthy();
  return { seen: res.body.items.find((x: { id: string }) => x.id === id), date: date! };
}

describe('office updates: an approval bound to the version reviewed', () => {
  it('refuses with 409 when the author edited the post after the review, publishing nothing', async () => {
    const boss = await admin();
    const a = await newMember();
    const p = await createPost(a.token, { content: `Harmless news ${uniq()}` });
    await sleep(1100); // the post's creation falls in an earlier second than the review
    const { seen, date } = await review(boss.token, p.id);
    expect(seen.content).toContain('Harmless news');
    await sleep(1100);
    const edited = await api('PATCH', `/posts/${p.id}`, {
      token: a.token,
      body: { content: 'Something else entirely' },
    });
    expect(edited.status).toBe(200);
    const refused = await approve(boss.token, p.id, { 'if-unmodified-since': date });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      statusCode: 409,
      error: 'Conflict',
      message: expect.stringContaining('edited'),
    });
    expect((await api('GET', `/public/office-updates/${p.id}`)).status).toBe(404);
    // Reviewed again, it goes through.
    await sleep(1100);
    const again = await review(boss.token, p.id);
    expect(again.seen.content).toBe('Something else entirely');
    const ok = await approve(boss.token, p.id, { 'if-unmodified-since': again.date });
    expect(ok.status).toBe(200);
    expect((await api('GET', `/public/office-updates/${p.id}`)).body.content).toBe('Something else entirely');
  });

  it('approves an unedited post under the condition, and without it as before', async () => {
    const boss = await admin();
    const a = await newMember();
    const p = await createPost(a.token, { content: `Plain news ${uniq()}` });
    await sleep(1100);
    const { date } = await review(boss.token, p.id);
    expect((await approve(boss.token, p.id, { 'if-unmodified-since': date })).status).toBe(200);
    const q = await createPost(a.token, { content: `Other news ${uniq()}` });
    await api('PATCH', `/posts/${q.id}`, { token: a.token, body: { content: 'Edited, then approved unbound' } });
    expect((await approve(boss.token, q.id)).status).toBe(200);
  });

  it('answers 400 for a date that is not an HTTP date, changing nothing', async () => {
    const boss = await admin();
    const a = await newMember();
    const p = await createPost(a.token, { content: `News ${uniq()}` });
    for (const bad of ['yesterday', '2026-11-25T09:00:00Z', '12345']) {
      const res = await approve(boss.token, p.id, { 'if-unmodified-since': bad });
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    const { seen } = await review(boss.token, p.id);
    expect(seen.status).toBe('pending');
  });

  it('is described in the OpenAPI document', async () => {
    const boss = await admin();
    const doc = (await api('GET', '/openapi.json', { token: boss.token })).body;
    const op = doc.paths['/api/v1/admin/website-posts/{postId}/approve'].post;
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toContain(
      'header:If-Unmodified-Since',
    );
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '409']));
  });
});
