import { describe, expect, it } from 'vitest';
import { env } from '../../shared/config/env.ts';
import { ContentReport, ReportFiling } from '../../shared/moderation/entities.ts';
import { REPORTS_PER_DAY } from '../../shared/moderation/reports.ts';
import { createPost, notificationsOf, waitFor } from '../feed/helpers.ts';
import { admin, api, newMember } from '../support/api.ts';

/** Content reports through the local runtime (docs/moderation.md). */

const report = (token: string, postId: string, body: object, commentId?: string) =>
  api('POST', commentId ? `/posts/${postId}/comments/${commentId}/report` : `/posts/${postId}/report`, {
    token,
    body,
  });

async function openReport(id: string) {
  const a = await admin();
  for (let cursor: string | null | undefined, pages = 0; pages < 50; pages++) {
    const res = await api('GET', `/admin/reports?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      token: a.token,
    });
    expect(res.status, res.text).toBe(200);
    const hit = res.body.items.find((r: { id: string }) => r.id === id);
    if (hit) return hit;
    cursor = res.body.nextCursor;
    if (!cursor) return undefined;
  }
  return undefined;
}

const reporters = (n: number) => Promise.all(Array.from({ length: n }, () => newMember()));

describe('content reports', () => {
  it('files one open report per person per post, names no reporter to the author, and refuses what it must', async () => {
    const [author, reader, other] = await reporters(3);
    const post = await createPost(author.token, { content: 'something to report' });

    const filed = await report(reader.token, post.id, { reason: 'spam', details: 'ads again' });
    expect(filed.status, filed.text).toBe(201);
    expect(filed.body).toMatchObject({ reportId: `post-${post.id}`, reason: 'spam' });

    // The same person again while open: 409; their own post: 403; unknown post: 404; a bad reason: 400.
    expect((await report(reader.token, post.id, { reason: 'hate' })).status).toBe(409);
    expect((await report(author.token, post.id, { reason: 'spam' })).status).toBe(403);
    expect((await report(reader.token, '01JZZZZZZZZZZZZZZZZZZZZZZZ', { reason: 'spam' })).status).toBe(404);
    const bad = await report(other.token, post.id, { reason: 'boring' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400 });

    expect((await report(other.token, post.id, { reason: 'harassment' })).status).toBe(201);
    const listed = await openReport(`post-${post.id}`);
    expect(listed).toMatchObject({
      kind: 'post',
      postId: post.id,
      commentId: null,
      authorId: author.id,
      status: 'open',
      reporterCount: 2,
      reasons: { spam: 1, harassment: 1 },
      hidden: false,
    });
    // Nothing in the moderators' view names who reported.
    expect(JSON.stringify(listed)).not.toContain(reader.id);
    expect(JSON.stringify(listed)).not.toContain(other.id);

    // The author sees nothing of it: the post reads as before and no notification came.
    const seen = await api('GET', `/posts/${post.id}`, { token: author.token });
    expect(JSON.stringify(seen.body)).not.toContain(reader.id);
    expect((await notificationsOf(author.token)).filter((n) => n.postId === post.id)).toEqual([]);

    // Members have no moderators' routes.
    expect((await api('GET', '/admin/reports', { token: reader.token })).status).toBe(403);
    expect(
      (await api('PATCH', `/admin/reports/post-${post.id}`, { token: reader.token, body: { action: 'dismiss' } }))
        .status,
    ).toBe(403);
  });

  it('hides a post past the threshold of distinct reporters until reviewed; dismissing shows it again', async () => {
    const threshold = env.reportHideThreshold;
    expect(threshold).toBeGreaterThan(0);
    const [author, bystander] = await reporters(2);
    const post = await createPost(author.token, { content: 'controversial' });
    const sibling = await createPost(author.token, { content: 'harmless' });
    const crowd = await reporters(threshold);
    for (const [i, r] of crowd.entries()) {
      const res = await report(r.token, post.id, { reason: i % 2 ? 'hate' : 'misinformation' });
      expect(res.status, res.text).toBe(201);
      // Hidden only once the threshold is reached.
      const read = await api('GET', `/posts/${post.id}`, { token: bystander.token });
      expect(read.status).toBe(i + 1 < threshold ? 200 : 404);
    }
    const a = await admin();
    expect((await openReport(`post-${post.id}`)).hidden).toBe(true);
    // Its author still sees it (hidden); the author's other post is untouched (bystander).
    const own = await api('GET', `/posts/${post.id}`, { token: author.token });
    expect(own.status).toBe(200);
    expect(own.body.isHidden).toBe(true);
    expect((await api('GET', `/posts/${sibling.id}`, { token: bystander.token })).status).toBe(200);

    const dismissed = await api('PATCH', `/admin/reports/post-${post.id}`, {
      token: a.token,
      body: { action: 'dismiss' },
    });
    expect(dismissed.status, dismissed.text).toBe(200);
    expect(dismissed.body).toMatchObject({ status: 'dismissed', hidden: false, reporterCount: threshold });
    expect((await api('GET', `/posts/${post.id}`, { token: bystander.token })).status).toBe(200);
    expect(await openReport(`post-${post.id}`)).toBeUndefined();
    // Reviewed reports are listed by the month of their review; a second review is a 409.
    const reviewed = await api('GET', `/admin/reports?status=reviewed&limit=50`, { token: a.token });
    expect(reviewed.body.items.map((r: { id: string }) => r.id)).toContain(`post-${post.id}`);
    expect(
      (await api('PATCH', `/admin/reports/post-${post.id}`, { token: a.token, body: { action: 'hide' } })).status,
    ).toBe(409);

    // A report after the review opens the next round: the same person may report again.
    expect((await report(crowd[0].token, post.id, { reason: 'other' })).status).toBe(201);
    expect(await openReport(`post-${post.id}`)).toMatchObject({ reporterCount: 1, reasons: { other: 1 } });
    // Both rounds' filings are kept, one per person per round.
    const filings = await ReportFiling.queryAll({ key: { reportId: `post-${post.id}` } });
    expect(filings).toHaveLength(threshold + 1);
    expect(new Set(filings.map((f) => `${f.round}:${f.reporterId}`)).size).toBe(threshold + 1);
  });

  it('after a dismissal the same reporters cannot hide the post again; new reporters can', async () => {
    const threshold = env.reportHideThreshold;
    const [author, bystander] = await reporters(2);
    const post = await createPost(author.token, { content: 'disputed but fine' });
    const crowd = await reporters(threshold);
    for (const r of crowd) expect((await report(r.token, post.id, { reason: 'misinformation' })).status).toBe(201);
    expect((await api('GET', `/posts/${post.id}`, { token: bystander.token })).status).toBe(404);
    const a = await admin();
    const dismissed = await api('PATCH', `/admin/reports/post-${post.id}`, {
      token: a.token,
      body: { action: 'dismiss' },
    });
    expect(dismissed.status, dismissed.text).toBe(200);
    // The same people report again: a new round the moderators see, but the post stays up.
    for (const r of crowd) expect((await report(r.token, post.id, { reason: 'other' })).status).toBe(201);
    expect(await openReport(`post-${post.id}`)).toMatchObject({ reporterCount: threshold, hidden: false });
    expect((await api('GET', `/posts/${post.id}`, { token: bystander.token })).status).toBe(200);
    // New reporters, as many as the threshold, hide it again.
    const fresh = await reporters(threshold);
    for (const [i, r] of fresh.entries()) {
      expect((await report(r.token, post.id, { reason: 'hate' })).status).toBe(201);
      const read = await api('GET', `/posts/${post.id}`, { token: bystander.token });
      expect(read.status).toBe(i + 1 < threshold ? 200 : 404);
    }
    expect(await openReport(`post-${post.id}`)).toMatchObject({ reporterCount: 2 * threshold, hidden: true });
  }, 120_000);

  it("closes a deleted post's report and its comments', their filings going with them", async () => {
    const [author, commenter, reporter] = await reporters(3);
    const post = await createPost(author.token, { content: 'soon gone' });
    const c = await api('POST', `/posts/${post.id}/comments`, { token: commenter.token, body: { content: 'meh' } });
    expect(c.status).toBe(201);
    expect((await report(reporter.token, post.id, { reason: 'spam' })).status).toBe(201);
    expect((await report(reporter.token, post.id, { reason: 'spam' }, c.body.id)).status).toBe(201);
    expect(await openReport(`post-${post.id}`)).toBeTruthy();
    expect(await openReport(`comment-${c.body.id}`)).toBeTruthy();
    expect((await api('DELETE', `/posts/${post.id}`, { token: author.token })).status).toBe(204);
    // Closed in the background, from the post's removal (and its comment's, removed with it).
    for (const id of [`post-${post.id}`, `comment-${c.body.id}`]) {
      await waitFor(
        async () => ((await ReportFiling.queryAll({ key: { reportId: id } })).length ? undefined : true),
        20_000,
      );
      await waitFor(async () => ((await ContentReport.get({ id }, { consistent: true })) ? undefined : true), 20_000);
      expect(await openReport(id)).toBeUndefined();
      const a = await admin();
      expect((await api('PATCH', `/admin/reports/${id}`, { token: a.token, body: { action: 'dismiss' } })).status).toBe(
        404,
      );
    }
  }, 120_000);

  it('a moderator hides a reported comment: off its list, the author told with the note and nobody named', async () => {
    const [author, commenter, reporter] = await reporters(3);
    const post = await createPost(author.token, { content: 'a thread' });
    const c = await api('POST', `/posts/${post.id}/comments`, {
      token: commenter.token,
      body: { content: 'rude words' },
    });
    expect(c.status).toBe(201);
    const keep = await api('POST', `/posts/${post.id}/comments`, {
      token: author.token,
      body: { content: 'kind words' },
    });
    const filed = await report(reporter.token, post.id, { reason: 'harassment' }, c.body.id);
    expect(filed.status, filed.text).toBe(201);
    expect(filed.body.reportId).toBe(`comment-${c.body.id}`);
    // A comment id under another post is not found.
    const elsewhere = await createPost(author.token, { content: 'elsewhere' });
    expect((await report(reporter.token, elsewhere.id, { reason: 'spam' }, c.body.id)).status).toBe(404);

    const a = await admin();
    const hidden = await api('PATCH', `/admin/reports/comment-${c.body.id}`, {
      token: a.token,
      body: { action: 'hide', note: 'Please keep it civil.' },
    });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body).toMatchObject({ status: 'actioned', note: 'Please keep it civil.' });

    const list = await api('GET', `/posts/${post.id}/comments`, { token: reporter.token });
    expect(list.body.items.map((x: { id: string }) => x.id)).toEqual([keep.body.id]);
    expect(
      (
        await api('POST', `/posts/${post.id}/comments`, {
          token: reporter.token,
          body: { content: 'reply', parentId: c.body.id },
        })
      ).status,
    ).toBe(400);

    const told = (await notificationsOf(commenter.token)).filter((n) => n.kind === 'content_hidden');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ postId: post.id, commentId: c.body.id, actor: null });
    expect(JSON.stringify(told)).toContain('Please keep it civil.');
    expect(JSON.stringify(told)).not.toContain(reporter.id);
    // Nobody else was told.
    expect((await notificationsOf(reporter.token)).filter((n) => n.kind === 'content_hidden')).toEqual([]);
  });

  it('limits reports per person per day (429 with Retry-After) and replays an idempotent retry', async () => {
    const [author, reporter] = await reporters(2);
    const posts = [];
    for (let i = 0; i <= REPORTS_PER_DAY; i++) posts.push(await createPost(author.token, { content: `post ${i}` }));
    const key = `report-${posts[0].id}`;
    const first = await api('POST', `/posts/${posts[0].id}/report`, {
      token: reporter.token,
      body: { reason: 'spam' },
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    const again = await api('POST', `/posts/${posts[0].id}/report`, {
      token: reporter.token,
      body: { reason: 'spam' },
      headers: { 'idempotency-key': key },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    for (const p of posts.slice(1, REPORTS_PER_DAY))
      expect((await report(reporter.token, p.id, { reason: 'spam' })).status).toBe(201);
    const over = await report(reporter.token, posts[REPORTS_PER_DAY].id, { reason: 'spam' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing half-written: the refused report left no trace.
    expect(await openReport(`post-${posts[REPORTS_PER_DAY].id}`)).toBeUndefined();
  });
});
