import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataExport } from '../../shared/data-rights/entities.ts';
import { exportPrefix } from '../../shared/data-rights/export-document.ts';
import { runDataRightsWork } from '../../shared/data-rights/work.ts';
import { readDocument } from '../../shared/documents/whole-list.ts';
import { FeedScore } from '../../shared/feed/entities.ts';
import { attendanceDoc } from '../../shared/hr/attendance-day.ts';
import { User } from '../../shared/people/entities.ts';
import { ROSTER } from '../../shared/people/roster.ts';
import { PostSeen, ReachTotal } from '../../shared/reach/entities.ts';
import { waitFor } from '../feed/helpers.ts';
import { admin, api, PASSWORD } from '../support/api.ts';
import { checkCounters, itemsAbout, worldOf } from '../support/counters.ts';
import { type PersonOfEveryKind, seedPersonOfEveryKind } from '../support/person-seed.ts';
import { findTraces } from '../support/person-traces.ts';
import { readRoutesWithout5xx } from '../support/read-routes.ts';
import { runtimeOfItsOwn, type SeededCompany } from '../support/seeded-company.ts';
import { scanTable, storedObjects } from '../support/stored-data.ts';

/**
 * People's data rights (issue 28) over data of every kind: a person's copy holds every kind, and after
 * their erasure nothing in the table or the bucket carries their id, e-mail, name or date of birth,
 * while what others need stays readable and every counter stays exact.
 */

/**
 * Runs the worker, as its schedule would, until the job is done. An erasure's last pass waits for the
 * change feed to turn the erasure's own writes into events (DATA_RIGHTS_SETTLE_SECONDS, shortened here
 * from its 5 minutes; the worker runs in this process): real time passes, as deployed.
 */
process.env.DATA_RIGHTS_SETTLE_SECONDS = '8';

// Its jobs walk the whole table: a table of its own (test/support/seeded-company.ts).
let runtime: SeededCompany;
beforeAll(async () => {
  runtime = await runtimeOfItsOwn();
}, 120_000);
afterAll(() => runtime?.stop());

async function workUntil(job: string, done: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 150_000;
  while (!(await done()) && Date.now() < until) {
    await runDataRightsWork({ only: [job] });
    if (!(await done())) await new Promise((r) => setTimeout(r, 1000));
  }
  expect(await done()).toBe(true);
}

describe("people's data rights over data of every kind", () => {
  let seeded: PersonOfEveryKind;
  let document: any;
  let adminExportId: string;

  beforeAll(async () => {
    seeded = await seedPersonOfEveryKind();
  }, 180_000);

  it('gives a person a copy holding every kind of their data, and nobody else sees it', async () => {
    const s = seeded.subject;
    const o1 = seeded.other1;
    const a = await admin();
    // What the service holds about them but the API does not show them: a post of O1's mentioning them
    // and O1's comment mentioning them under it, both hidden; O1's score, last moved by them (a reaction);
    // a legal hold (a mark on their profile).
    const hiddenPost = await api('POST', '/posts', { token: o1.token, body: { content: `About @[${s.id}], hidden` } });
    expect(hiddenPost.status).toBe(201);
    const hiddenComment = await api('POST', `/posts/${hiddenPost.body.id}/comments`, {
      token: o1.token,
      body: { content: `More about @[${s.id}]` },
    });
    expect(hiddenComment.status).toBe(201);
    expect((await api('POST', `/admin/posts/${hiddenPost.body.id}/hide`, { token: a.token })).status).toBe(200);
    expect(
      (await api('POST', `/posts/${seeded.ids.mentionPostId}/upvote`, { token: s.token, body: { reaction: 'love' } }))
        .status,
    ).toBe(200);
    expect((await FeedScore.get({ userId: o1.id }, { consistent: true }))?.actorId).toBe(s.id);
    const hold = (legalHold: boolean) =>
      api('PUT', `/admin/members/${s.id}/legal-hold`, { token: a.token, body: { legalHold } });
    expect((await hold(true)).status).toBe(200);
    expect((await User.get({ id: s.id }, { consistent: true }))?.legalHold).toBe(true);

    const started = await api('POST', '/users/me/data-export', { token: s.token });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'running', userId: s.id, url: null });
    // A second request while it runs answers the same export.
    expect((await api('POST', '/users/me/data-export', { token: s.token })).body.id).toBe(started.body.id);
    // Nobody else reads it, not even by its id.
    const other = await api('GET', `/users/me/data-export/${started.body.id}`, { token: seeded.other1.token });
    expect(other.status).toBe(404);

    const path = `/users/me/data-export/${started.body.id}`;
    await workUntil(started.body.id, async () => (await api('GET', path, { token: s.token })).body.status === 'ready');
    const ready = (await api('GET', path, { token: s.token })).body;
    expect(ready.expiresAt).not.toBeNull();
    // Their own copy once a day: asking again the same day answers the ready one.
    expect((await api('POST', '/users/me/data-export', { token: s.token })).body).toMatchObject({
      id: ready.id,
      status: 'ready',
    });
    const res = await fetch(ready.url);
    expect(res.status).toBe(200);
    document = await res.json();

    expect(document.format).toBe('workplace-person-data/1');
    expect(document.grievanceChannel).toMatch(
      /grievance channel is included|Nothing you wrote in the anonymous grievance channel/,
    );
    const sections = document.sections as Record<string, any[]>;
    for (const [section, count] of Object.entries(ready.counts))
      expect(sections[section]).toHaveLength(count as number);
    const ids = seeded.ids;
    const has = (section: string, match: (x: any) => boolean) =>
      expect({ section, found: (sections[section] ?? []).some(match) }).toEqual({ section, found: true });
    has('profile', (p) => p.id === s.id && p.dateOfBirth === s.dateOfBirth && p.managerId === seeded.other2.id);
    has('posts', (p) => p.id === ids.imagePostId);
    has('posts', (p) => p.id === ids.pollPostId);
    has('posts', (p) => p.id === ids.mentionPostId); // about them: O1's post that mentions them
    has('uploads', (u) => Array.isArray(u.links) && u.links.length > 0);
    has('comments', (c) => c.id === ids.commentId);
    has('comments', (c) => c.id === ids.replyId);
    has('reactions', (r) => r.postId === ids.otherPostId);
    has('acknowledgements', (a) => a.postId === ids.mustReadPostId && a.status === 'acknowledged');
    has('pollVotes', (v) => v.postId === ids.otherPostId);
    has('commentVotes', (v) => v.commentId === ids.likedCommentId);
    has('birthdayWishes', (w) => w.id === ids.wishToSubjectId);
    has('birthdayWishes', (w) => w.id === ids.wishBySubjectId);
    has('attendance', (a) => a.date === ids.attendanceDate);
    has('leave', (l) => l.id === ids.leaveRequestId);
    has('leave', (l) => l.id === ids.decidedLeaveRequestId);
    has('presence', () => true);
    has('notifications', (n) => n.kind === 'mention');
    has('pushRegistrations', () => true);
    has('identityProvider', (l) => l.userId === s.id && /^idp-/.test(l.externalId));
    has('follows', (f) => f.userId === s.id && f.followingId === seeded.other1.id);
    has('reports', (r) => r.reportId === `post-${ids.recognitionPostId}` && r.reason === 'other');
    // Reach (docs/reach.md): what they saw and did with posts, and their read-receipt choice.
    has('seen', (m) => m.postId === ids.mentionPostId && !!m.seenAt);
    has('seen', (m) => m.postId === ids.otherPostId && !!m.reactedAt && !!m.commentedAt);
    has('readReceipts', (c) => c.userId === s.id && c.optedOut === true);
    expect((sections.seen ?? []).filter((m) => m.userId !== s.id)).toEqual([]);
    has('reportsOnTheirContent', (r) => r.postId === ids.imagePostId && r.reasons.spam === 1);
    // The report on their post names nobody who reported it.
    expect(JSON.stringify(sections.reportsOnTheirContent)).not.toContain(o1.id);
    // Who follows them is shown by no route: not in their copy (O1 follows them).
    expect(sections.follows.filter((f) => f.userId !== s.id)).toEqual([]);
    has('bookmarks', (b) => b.postId === ids.otherPostId);
    has('teams', (t) => t.teamId === ids.teamId);
    has('people', (p) => p.id === seeded.other1.id && p.managerId === s.id); // their report
    expect(sections.sessions.length).toBeGreaterThanOrEqual(2);
    // Media as links that open.
    const link = sections.uploads.flatMap((u) => u.links)[0];
    expect((await fetch(link)).status).toBe(200);
    // No secret of theirs, and nothing of another person's profile but the link with them.
    const text = JSON.stringify(document);
    for (const secret of ['passwordHash', 'tokenHash', 'sealed', seeded.subject.tokens[0], seeded.subject.tokens[1]])
      expect(text).not.toContain(secret);
    expect(text).not.toContain(seeded.other1.email);
    // Each kind exported in its declared fields: no internal mark of their profile, no key, index
    // attribute, lease or attribution on any item (a notification's actor is what the API shows).
    const profile = sections.profile.find((p) => p.id === s.id);
    for (const internal of ['legalHold', 'erasureId', 'actorId', 'rev']) expect(profile).not.toHaveProperty(internal);
    for (const [section, items] of Object.entries(sections))
      for (const item of items)
        for (const internal of ['pk', 'sk', 'entity', 'gsi1pk', 'gsi1sk', 'leaseUntil', 'ttl', 'tokenHash'])
          expect({ section, has: internal in item }).toEqual({ section, has: false });
    for (const [section, items] of Object.entries(sections))
      if (section !== 'notifications')
        expect({ section, actorId: items.some((i) => 'actorId' in i) }).toEqual({ section, actorId: false });
    // Nothing the API hides from them: others' hidden post and comment about them, others' scores.
    expect(sections.posts.some((p) => p.id === hiddenPost.body.id)).toBe(false);
    expect(sections.comments.some((c) => c.id === hiddenComment.body.id)).toBe(false);
    expect((sections.feedScore ?? []).filter((f) => f.userId !== s.id)).toEqual([]);
    // (Lifted, so that the erasure below may go ahead.)
    expect((await hold(false)).status).toBe(200);
  }, 240_000);

  it("lets a super admin export anybody's copy, telling the person by e-mail", async () => {
    const a = await admin();
    const s = seeded.subject;
    const started = await api('POST', `/admin/members/${s.id}/data-export`, { token: a.token });
    expect(started.status).toBe(201);
    adminExportId = started.body.id;
    const path = `/admin/members/${s.id}/data-export/${adminExportId}`;
    await workUntil(adminExportId, async () => (await api('GET', path, { token: a.token })).body.status === 'ready');
    // The worker sent the notice recorded with the job.
    const mail = await api('GET', `/_local/outbox?to=${encodeURIComponent(s.email)}&channel=email`);
    expect(mail.body.some((m: any) => /copy of your data/i.test(m.subject))).toBe(true);
    expect((await api('GET', path, { token: a.token })).body.notice).toEqual({ email: 'sent', inApp: 'sent' });
    // Another person's id in the path does not open it.
    expect(
      (await api('GET', `/admin/members/${seeded.other1.id}/data-export/${adminExportId}`, { token: a.token })).status,
    ).toBe(404);
  }, 240_000);

  it('erases them once they left: nothing carries them, others keep what they need, counters stay exact', async () => {
    const a = await admin();
    const s = seeded.subject;
    expect((await api('DELETE', `/admin/members/${s.id}`, { token: a.token })).status).toBe(409); // still active
    const off = await api('PATCH', `/admin/members/${s.id}/status`, {
      token: a.token,
      body: { status: 'deactivated' },
    });
    expect(off.status).toBe(200);
    // The whole lists' documents hold them (their roster row, O1's naming them as manager, their
    // check-in of the seeded day) once folded: the erasure must take them out of every one.
    const o1 = seeded.other1;
    const day = attendanceDoc(seeded.ids.attendanceDate);
    await waitFor(async () => {
      const [roster, attendance] = [await readDocument(ROSTER), await readDocument(day)];
      return roster?.has(s.id) && roster.get(o1.id)?.[7] === s.id && attendance?.has(s.id) ? true : undefined;
    }, 15_000);
    const erasing = await api('DELETE', `/admin/members/${s.id}`, { token: a.token });
    expect(erasing.status).toBe(200);
    const erasure = `/admin/erasures/${erasing.body.id}`;
    await workUntil(
      erasing.body.id,
      async () => (await api('GET', erasure, { token: a.token })).body.status === 'done',
    );
    const audit = (await api('GET', erasure, { token: a.token })).body;
    expect(audit.counts['User.deleted']).toBe(1);
    expect(audit.counts['Post.kept']).toBeGreaterThanOrEqual(3);
    expect(audit.counts['documents.folded']).toBeGreaterThanOrEqual(1);

    // Nothing in the table or in any object version carries them (grievance items and sealed
    // notifications included: findTraces opens every notification, and unzips the documents).
    const items = await scanTable();
    const found = (await findTraces([s.id, s.email, s.name, s.dateOfBirth], { items })).traces;
    // A date of birth is not theirs alone: another person's own profile may hold the same day (another
    // test file seeds people born today too). Anywhere else it would be theirs.
    const traces = found.filter((t) => !(t.needle === s.dateOfBirth && /^User USER#\S+ \| PROFILE$/.test(t.where)));
    expect(traces.map((t) => `${t.needle === s.id ? 'id' : t.needle}: ${t.where} ${t.path}`)).toEqual([]);
    const objects = (await storedObjects()).objects.map((o) => o.key);
    // The documents were there to be searched, and are read without them: O1 now has no manager there.
    expect(objects).toEqual(expect.arrayContaining([`documents/${ROSTER}.json.gz`, `documents/${day}.json.gz`]));
    const roster = await readDocument(ROSTER);
    expect(roster?.has(s.id)).toBe(false);
    expect(roster?.get(o1.id)?.[7]).toBeNull();
    expect((await readDocument(day))?.has(s.id)).toBe(false);
    expect(objects.filter((k) => k.includes(s.avatarTag))).toEqual([]);
    // Their uploaded files went too (original and renditions), though their keys name only the upload.
    const uploadId = seeded.ids.imagePath.split('/').pop()!.split('.')[0];
    expect(uploadId.length).toBeGreaterThan(8);
    expect(objects.filter((k) => k.includes(uploadId))).toEqual([]);
    expect(objects.filter((k) => k.startsWith(exportPrefix(adminExportId)))).toEqual([]);

    // Counters and totals exact; every read route answers.
    // The counters of this world (other test files seed theirs in bulk), its own reads confirming a
    // mismatch; the opaque id carries what the person kept.
    const pseudonym = items.find((i) => i.entity === 'Post' && i.id === seeded.ids.imagePostId)?.authorId as string;
    expect(pseudonym).toBeDefined();
    const world = itemsAbout(worldOf(seeded, [pseudonym]), [seeded.ids.attendanceDate]);
    expect(await checkCounters({ within: world })).toEqual([]);
    const reads = await readRoutesWithout5xx(
      { admin: a.token, member: o1.token },
      // Claiming today's birthdays would notify every member of the shared test table.
      { items, skip: (path) => path.includes('/birthdays/today') },
    );
    expect(reads.failures).toEqual([]);

    // Reach: their marks went, the bystander's stayed, and the counts they made are kept.
    expect(
      await PostSeen.get({ postId: seeded.ids.mentionPostId, userId: s.id }, { consistent: true }),
    ).toBeUndefined();
    expect(
      (await PostSeen.get({ postId: seeded.ids.imagePostId, userId: o1.id }, { consistent: true }))?.seenAt,
    ).toBeDefined();
    expect((await ReachTotal.get({ postId: seeded.ids.mentionPostId }, { consistent: true }))?.seen).toBe(1);
    // What others keep: the post, attributed to nobody, its reactions counted; their decision on O1's leave.
    const post = await api('GET', `/posts/${seeded.ids.imagePostId}`, { token: o1.token });
    expect(post.status).toBe(200);
    expect(post.body.author.name).toBe('Former member');
    expect(post.body.author.id).not.toBe(s.id);
    expect(post.body.images).toEqual([]);
    expect(post.body.upvoteCount).toBeGreaterThanOrEqual(1);
    const mine = await api('GET', '/leave/requests', { token: o1.token });
    const decided = (mine.body as any[]).find((r) => r.id === seeded.ids.decidedLeaveRequestId);
    expect(decided.status).toBe('APPROVED');
    // O1 had them as manager: now nobody.
    expect((await api('GET', '/users/me/profile', { token: o1.token })).body.manager).toBeNull();
    // The export's record stays for the audit, under the opaque id; its document is gone.
    const record = await DataExport.get({ id: adminExportId }, { consistent: true });
    expect(record?.status).toBe('expired');
    expect(record?.userId).not.toBe(s.id);
    // They cannot sign in; their e-mail is free again.
    const signIn = await api('POST', '/auth/sign-in/email', { body: { email: s.email, password: PASSWORD } });
    expect(signIn.status).toBe(401);
  }, 300_000);
});
