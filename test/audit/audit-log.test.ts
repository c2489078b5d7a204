import sharp from 'sharp';
import { describe, expect, inject, it, vi } from 'vitest';
import { routes } from '../../shared/api/routes/index.ts';
import { AuditEntry } from '../../shared/audit/entities.ts';
import { listAuditLog } from '../../shared/audit/log.ts';
import { erasureOf } from '../../shared/data-rights/erasure.ts';
import { exportOf } from '../../shared/data-rights/export.ts';
import { db } from '../../shared/db/client.ts';
import { upload } from '../people/helpers.ts';
import { admin, api, newMember, PASSWORD, signIn, uniq } from '../support/api.ts';

/**
 * The admin audit log (docs/audit-log.md) through the local runtime: every super-admin write route and
 * every SCIM write route declares its action, and a request leaves exactly one entry with its actor,
 * action and target; failures and replays leave none; the grievance routes name nobody.
 */

type Entry = {
  requestId: string;
  at: string;
  actorKind: string;
  actorId: string | null;
  action: string;
  targetId: string | null;
  targetIds: string[];
  changed: boolean;
};

const log = async (query: Record<string, string>): Promise<{ items: Entry[]; nextCursor: string | null }> => {
  const a = await admin();
  const res = await api('GET', `/admin/audit-log?${new URLSearchParams(query)}`, { token: a.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
/** Every entry about a target (all pages). */
const about = async (targetId: string): Promise<Entry[]> => {
  const all: Entry[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: Entry[]; nextCursor: string | null } = await log({
      targetId,
      limit: '100',
      ...(cursor ? { cursor } : {}),
    });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
};
const ok = (res: { status: number; text: string; body: any }, status: number) => {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  return res.body;
};
/** Exactly one entry of `action` about `targetId`, by `actorId`. */
const expectOne = async (targetId: string, action: string, actorId: string | null) => {
  const found = (await about(targetId)).filter((e) => e.action === action);
  expect(found, `${action} on ${targetId}`).toHaveLength(1);
  expect(found[0]).toMatchObject({ action, targetId, actorId });
  return found[0];
};

const scimToken = () => inject('localEnv').SCIM_TOKEN!;
const scim = (method: string, path: string, body?: unknown) =>
  api(method, `/api/v1/scim/v2${path}`, { token: scimToken(), body });

describe('the admin audit log', () => {
  it('is declared by every super-admin write route and every SCIM write route (the route table walked)', () => {
    const mustAudit = routes.filter((r) => (r.auth === 'super_admin' || r.scim) && r.method !== 'GET');
    // 20 super-admin writes (members, data rights, profiles, teams, posts, website, grievance handling) and 8 SCIM.
    expect(mustAudit.length).toBeGreaterThanOrEqual(28);
    const missing = mustAudit.filter((r) => !r.audit).map((r) => r.name);
    expect(missing, 'super-admin or SCIM write routes without an audit declaration').toEqual([]);
    for (const r of routes.filter((x) => x.audit)) {
      expect(r.audit!.action, r.name).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      // Only writing routes record; the session routes that do are create-post's announcement and the
      // survey admin routes (super admins or survey owners, whose actions are recorded too: `delegated`).
      expect(r.method, r.name).not.toBe('GET');
      if (r.auth === 'session' && !(r.area === 'surveys' && r.path.includes('/admin/'))) {
        expect(r.name).toBe('create-post');
        expect(r.audit!.when?.({ isAnnouncement: false })).toBe(false);
      }
      for (const p of r.audit!.target.params ?? []) expect(r.path, r.name).toContain(`{${p}}`);
    }
    const actions = routes.filter((r) => r.audit).map((r) => r.audit!.action);
    expect(new Set(actions).size).toBe(actions.length);
  });

  it('records each member, team, post and website action once, with the acting admin and the target', async () => {
    const a = await admin();
    const me = a.user.id as string;
    const tag = uniq();
    // member.create: the target is the member created.
    const created = ok(
      await api('POST', '/admin/members', {
        token: a.token,
        body: { name: `Audited ${tag}`, email: `audited-${tag}@example.com`, password: PASSWORD },
      }),
      201,
    );
    await expectOne(created.id, 'member.create', me);
    const m = `/admin/members/${created.id}`;
    ok(await api('PATCH', `${m}/role`, { token: a.token, body: { role: 'member' } }), 200);
    ok(await api('PATCH', `${m}/featured`, { token: a.token, body: { featured: true, note: 'Good' } }), 200);
    ok(await api('PATCH', `${m}/password`, { token: a.token, body: { password: 'another-password-2' } }), 200);
    ok(await api('PUT', `${m}/legal-hold`, { token: a.token, body: { legalHold: true } }), 200);
    ok(await api('PUT', `${m}/legal-hold`, { token: a.token, body: { legalHold: false } }), 200);
    ok(await api('PATCH', `/people/${created.id}/profile`, { token: a.token, body: { title: 'Auditor' } }), 200);
    ok(await api('PATCH', `${m}/status`, { token: a.token, body: { status: 'deactivated' } }), 200);
    const entries = await about(created.id);
    for (const action of [
      'member.role.set',
      'member.featured.set',
      'member.password.set',
      'member.profile.update',
      'member.status.set',
    ])
      await expectOne(created.id, action, me);
    expect(entries.filter((e) => e.action === 'member.legal_hold.set')).toHaveLength(2);
    // Never a password or a body: the entry holds only these fields.
    const text = JSON.stringify(entries);
    expect(text).not.toContain('another-password-2');
    expect(text).not.toContain('Auditor');
    for (const e of entries) expect(e.actorKind).toBe('person');

    // member.data_export.create: the person and the export created.
    const target = await newMember();
    const exp = ok(await api('POST', `/admin/members/${target.id}/data-export`, { token: a.token }), 201);
    const exportEntry = await expectOne(target.id, 'member.data_export.create', me);
    expect(exportEntry.targetIds).toEqual([target.id, exp.id]);

    // Teams: created (target the new team), renamed, deleted.
    const team = ok(await api('POST', '/teams', { token: a.token, body: { name: `Audit team ${tag}` } }), 201);
    await expectOne(team.id, 'team.create', me);
    ok(await api('PATCH', `/teams/${team.id}`, { token: a.token, body: { name: `Audit team ${tag} b` } }), 200);
    await expectOne(team.id, 'team.update', me);
    ok(await api('DELETE', `/teams/${team.id}`, { token: a.token }), 200);
    await expectOne(team.id, 'team.delete', me);
  }, 180_000);

  it('records announcements, hiding and website decisions, and not ordinary posts', async () => {
    const a = await admin();
    const me = a.user.id as string;
    const tag = uniq();
    const target = await newMember();
    // Posts: an announcement is audited, an ordinary post is not; hide and unhide are.
    const post = ok(await api('POST', '/posts', { token: target.token, body: { content: `Plain ${tag}` } }), 201);
    expect(await about(post.id)).toEqual([]);
    const announcement = ok(
      await api('POST', '/posts', { token: a.token, body: { content: `Announcement ${tag}`, isAnnouncement: true } }),
      201,
    );
    await expectOne(announcement.id, 'post.announcement.create', me);
    ok(await api('POST', `/admin/posts/${post.id}/hide`, { token: a.token }), 200);
    ok(await api('POST', `/admin/posts/${post.id}/unhide`, { token: a.token }), 200);
    await expectOne(post.id, 'post.hide', me);
    await expectOne(post.id, 'post.unhide', me);
    // A report's review (docs/moderation.md): recorded with the report's id, never with who reported.
    const reporter = await newMember();
    ok(await api('POST', `/posts/${post.id}/report`, { token: reporter.token, body: { reason: 'spam' } }), 201);
    expect(await about(`post-${post.id}`)).toEqual([]);
    ok(await api('PATCH', `/admin/reports/post-${post.id}`, { token: a.token, body: { action: 'dismiss' } }), 200);
    await expectOne(`post-${post.id}`, 'report.review', me);
    // Website decisions: approved then unpublished; another rejected.
    ok(await api('POST', `/admin/website-posts/${post.id}/approve`, { token: a.token }), 200);
    ok(await api('POST', `/admin/website-posts/${post.id}/unpublish`, { token: a.token }), 200);
    await expectOne(post.id, 'website_post.approve', me);
    await expectOne(post.id, 'website_post.unpublish', me);
    const other = ok(await api('POST', '/posts', { token: target.token, body: { content: `Other ${tag}` } }), 201);
    ok(await api('POST', `/admin/website-posts/${other.id}/reject`, { token: a.token }), 200);
    await expectOne(other.id, 'website_post.reject', me);
  }, 180_000);

  it('records what was stored, not what was asked: a member asking for an announcement is no actor', async () => {
    const a = await admin();
    const member = await newMember();
    const tag = uniq();
    // A member's `isAnnouncement` makes a plain post (as the specification says): no admin action.
    const plain = ok(
      await api('POST', '/posts', { token: member.token, body: { content: `Mine ${tag}`, isAnnouncement: true } }),
      201,
    );
    expect(plain.isAnnouncement).toBe(false);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduledPlain = ok(
      await api('POST', '/posts', {
        token: member.token,
        body: { content: `Later ${tag}`, isAnnouncement: true, publishAt: later },
      }),
      201,
    );
    expect(await about(plain.id)).toEqual([]);
    expect(await about(scheduledPlain.id)).toEqual([]);
    expect((await log({ actorId: member.id, limit: '100' })).items).toEqual([]);
    // A super admin's scheduled announcement is recorded when scheduled, with its id.
    const scheduled = ok(
      await api('POST', '/posts', {
        token: a.token,
        body: { content: `Soon ${tag}`, isAnnouncement: true, publishAt: later },
      }),
      201,
    );
    await expectOne(scheduled.id, 'post.announcement.create', a.user.id as string);
  });

  it('answers a window past now or longer than 25 months with a 400, at once', async () => {
    const a = await admin();
    const get = (query: string) => api('GET', `/admin/audit-log?${query}`, { token: a.token });
    const started = Date.now();
    const far = await get('to=9999-12-31T00:00:00Z&action=member.create');
    expect(far.status, far.text).toBe(400);
    expect(far.body).toMatchObject({ statusCode: 400 });
    expect(Date.now() - started).toBeLessThan(5_000);
    const hourAhead = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(`to=${encodeURIComponent(hourAhead)}`)).status).toBe(400);
    // 26 months apart, both in the past: too wide; 25 month partitions are the most one list reads.
    expect((await get('from=2020-01-01T00:00:00Z&to=2022-02-15T00:00:00Z')).status).toBe(400);
    expect((await get('from=2020-02-01T00:00:00Z&to=2022-02-15T00:00:00Z')).status).toBe(200);
    expect((await get(`to=${encodeURIComponent(new Date().toISOString())}`)).status).toBe(200);
  });

  it('records SCIM writes with the provisioning channel as the actor', async () => {
    const tag = uniq();
    const user = ok(
      await scim('POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `scim-audit-${tag}@example.com`,
        externalId: `audit-${tag}`,
        name: { givenName: 'Scim', familyName: tag },
        active: true,
      }),
      201,
    );
    const entry = await expectOne(user.id, 'scim.user.create', 'scim');
    expect(entry.actorKind).toBe('scim');
    ok(
      await scim('PATCH', `/Users/${user.id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'title', value: 'Provisioned' }],
      }),
      200,
    );
    await expectOne(user.id, 'scim.user.patch', 'scim');
    // A refused SCIM request (no token) records nothing.
    expect((await api('DELETE', `/api/v1/scim/v2/Users/${user.id}`, { token: 'wrong' })).status).toBe(401);
    expect((await about(user.id)).filter((e) => e.action === 'scim.user.delete')).toEqual([]);
    ok(await scim('DELETE', `/Users/${user.id}`), 204);
    await expectOne(user.id, 'scim.user.delete', 'scim');
  }, 120_000);

  it("records a person's avatar, their erasure and SCIM's replacements and groups", async () => {
    const a = await admin();
    const me = a.user.id as string;
    const p = await newMember();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#234' } })
      .png()
      .toBuffer();
    ok(await upload(`/people/${p.id}/avatar`, a.token, png), 201);
    await expectOne(p.id, 'member.avatar.set', me);
    // Erasure: refused (409) while active, recorded once asked of a deactivated person (target: the job too).
    const refused = await api('DELETE', `/admin/members/${p.id}`, { token: a.token });
    expect(refused.status).toBe(409);
    expect((await about(p.id)).filter((e) => e.action === 'member.erase')).toEqual([]);
    ok(await api('PATCH', `/admin/members/${p.id}/status`, { token: a.token, body: { status: 'deactivated' } }), 200);
    const erasure = ok(await api('DELETE', `/admin/members/${p.id}`, { token: a.token }), 200);
    const erased = await expectOne(p.id, 'member.erase', me);
    expect(erased.targetIds).toEqual([p.id, erasure.id]);

    const tag = uniq();
    const user = ok(
      await scim('POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `scim-put-${tag}@example.com`,
        name: { givenName: 'Scim', familyName: tag },
        active: true,
      }),
      201,
    );
    ok(
      await scim('PUT', `/Users/${user.id}`, {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `scim-put-${tag}@example.com`,
        name: { givenName: 'Scim', familyName: `${tag}b` },
        active: true,
      }),
      200,
    );
    await expectOne(user.id, 'scim.user.replace', 'scim');
    const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
    const group = ok(await scim('POST', '/Groups', { schemas: [GROUP], displayName: `Scim group ${tag}` }), 201);
    await expectOne(group.id, 'scim.group.create', 'scim');
    ok(
      await scim('PUT', `/Groups/${group.id}`, {
        schemas: [GROUP],
        displayName: `Scim group ${tag} b`,
        members: [{ value: user.id }],
      }),
      200,
    );
    await expectOne(group.id, 'scim.group.replace', 'scim');
    ok(
      await scim('PATCH', `/Groups/${group.id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'displayName', value: `Scim group ${tag} c` }],
      }),
      200,
    );
    await expectOne(group.id, 'scim.group.patch', 'scim');
    ok(await scim('DELETE', `/Groups/${group.id}`), 204);
    await expectOne(group.id, 'scim.group.delete', 'scim');
  }, 180_000);

  it('records grievance handling with the grievance id only, and nothing of raising or replying as the raiser', async () => {
    const a = await admin();
    const raiser = await newMember();
    // A super admin raising and replying as the raiser: not audited.
    const g = ok(
      await api('POST', '/grievances', {
        token: a.token,
        body: { subject: `Audit ${uniq()}`, description: 'A description long enough to raise.', category: 'other' },
      }),
      201,
    );
    ok(await api('POST', `/grievances/${g.id}/replies`, { token: a.token, body: { body: 'As the raiser' } }), 201);
    expect(await about(g.id)).toEqual([]);
    const other = ok(
      await api('POST', '/grievances', {
        token: raiser.token,
        body: { subject: `Audit ${uniq()}`, description: 'A description long enough to raise.', category: 'other' },
      }),
      201,
    );
    ok(
      await api('PATCH', `/admin/grievances/${other.id}/status`, {
        token: a.token,
        body: { status: 'in_review', reason: 'Looking' },
      }),
      200,
    );
    ok(await api('POST', `/admin/grievances/${other.id}/replies`, { token: a.token, body: { body: 'We look' } }), 201);
    const entries = await about(other.id);
    expect(entries.map((e) => e.action).sort()).toEqual(['grievance.reply.create', 'grievance.status.set']);
    for (const e of entries) {
      expect(e).toMatchObject({ actorId: null, actorKind: 'grievance_handler', targetIds: [other.id] });
      expect(JSON.stringify(e)).not.toContain(raiser.id);
      expect(JSON.stringify(e)).not.toContain(a.user.id);
    }
    // Stored: no actor, the anon mark (kept out of the change feed like the channel's items).
    for (const e of entries) {
      const stored = await AuditEntry.get({ month: e.at.slice(0, 7), at: e.at, requestId: e.requestId });
      expect(stored?.anon).toBe(true);
      expect(stored?.actorId).toBeUndefined();
    }
  }, 120_000);

  it('leaves no entry for a refused action, one for a replayed create, and none about a bystander', async () => {
    const a = await admin();
    const bystander = await newMember();
    const before = await about(bystander.id);
    expect(before.map((e) => e.action)).toEqual(['member.create']);
    // Refusals (an unknown person, a bad role): nothing recorded.
    const ghost = (await newMember()).id.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    const refused = await api('PATCH', `/admin/members/${ghost}/role`, { token: a.token, body: { role: 'member' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await about(ghost)).toEqual([]);
    const target = await newMember();
    expect(
      (await api('PATCH', `/admin/members/${target.id}/role`, { token: a.token, body: { role: 'emperor' } })).status,
    ).toBe(400);
    expect((await about(target.id)).map((e) => e.action)).toEqual(['member.create']);
    // A replayed create (same Idempotency-Key): one team, one entry.
    const key = `audit-${uniq()}`;
    const body = { name: `Replayed team ${uniq()}` };
    const first = ok(await api('POST', '/teams', { token: a.token, body, headers: { 'idempotency-key': key } }), 201);
    const again = await api('POST', '/teams', { token: a.token, body, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.id);
    expect((await about(first.id)).filter((e) => e.action === 'team.create')).toHaveLength(1);
    // Actions on the target changed nothing recorded about the bystander.
    ok(await api('PATCH', `/admin/members/${target.id}/featured`, { token: a.token, body: { featured: true } }), 200);
    expect(await about(bystander.id)).toEqual(before);
  }, 120_000);

  it('filters by actor, action, target and time, and pages newest first', async () => {
    const a = await admin();
    const tag = uniq();
    // A second super admin of its own, so its entries are exactly what this test makes.
    const boss = await newMember({ role: 'super_admin' });
    const people = await Promise.all([newMember(), newMember(), newMember()]);
    const start = new Date().toISOString();
    for (const p of people)
      ok(await api('PATCH', `/admin/members/${p.id}/featured`, { token: boss.token, body: { featured: true } }), 200);
    ok(await api('POST', '/teams', { token: boss.token, body: { name: `Boss team ${tag}` } }), 201);
    const mine = (await log({ actorId: boss.id, limit: '100' })).items;
    expect(mine.map((e) => e.action)).toEqual([
      'team.create',
      'member.featured.set',
      'member.featured.set',
      'member.featured.set',
    ]);
    expect(mine.map((e) => e.at)).toEqual([...mine.map((e) => e.at)].sort().reverse());
    // Pages of 1 over the actor's entries: the same entries, each once.
    const paged: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Entry[]; nextCursor: string | null } = await log({
        actorId: boss.id,
        limit: '1',
        ...(cursor ? { cursor } : {}),
      });
      expect(page.items.length).toBeLessThanOrEqual(1);
      paged.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged.map((e) => e.requestId)).toEqual(mine.map((e) => e.requestId));
    // Actor and action together; actor and target together.
    expect((await log({ actorId: boss.id, action: 'team.create' })).items).toHaveLength(1);
    expect((await log({ actorId: boss.id, targetId: people[0].id })).items).toHaveLength(1);
    // The action alone (month partitions of the action), bounded by time.
    const featured = (await log({ action: 'member.featured.set', from: start, limit: '100' })).items;
    for (const p of people) expect(featured.some((e) => e.targetId === p.id && e.actorId === boss.id)).toBe(true);
    // The whole log in a time window, paged by 2.
    const windowed: Entry[] = [];
    cursor = null;
    do {
      const page: { items: Entry[]; nextCursor: string | null } = await log({
        from: start,
        limit: '2',
        ...(cursor ? { cursor } : {}),
      });
      windowed.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    for (const e of mine) expect(windowed.some((w) => w.requestId === e.requestId)).toBe(true);
    expect(new Set(windowed.map((e) => e.requestId)).size).toBe(windowed.length);
    // Nothing before the entries' time; bad input is a 400; only super admins read it.
    expect((await log({ actorId: boss.id, to: start })).items).toEqual([]);
    expect((await log({ from: '2001-01-01T00:00:00Z', to: '2001-02-01T00:00:00Z' })).items).toEqual([]);
    expect(
      (await api('GET', `/admin/audit-log?from=${start}&to=2001-01-01T00:00:00Z`, { token: a.token })).status,
    ).toBe(400);
    expect((await api('GET', '/admin/audit-log?from=yesterday', { token: a.token })).status).toBe(400);
    expect((await api('GET', '/admin/audit-log?colour=red', { token: a.token })).status).toBe(400);
    const employee = await signIn(people[0].email, PASSWORD);
    expect((await api('GET', '/admin/audit-log', { token: employee.token })).status).toBe(403);
    // Every entry expires by the table's TTL after the retention (730 days by default).
    const stored = await AuditEntry.get({
      month: mine[0].at.slice(0, 7),
      at: mine[0].at,
      requestId: mine[0].requestId,
    });
    expect(stored?.ttl).toBe(Math.floor(Date.parse(mine[0].at) / 1000) + 730 * 86_400);
  }, 120_000);

  it('reads about its page with two filters most entries pass, not its whole budget', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const people = await Promise.all([newMember(), newMember(), newMember(), newMember()]);
    for (const p of people)
      ok(await api('PATCH', `/admin/members/${p.id}/featured`, { token: boss.token, body: { featured: true } }), 200);
    const send = vi.spyOn(db(), 'send');
    try {
      const page = await listAuditLog({ actorId: boss.id, action: 'member.featured.set', limit: 1 });
      expect(page.items).toHaveLength(1);
      expect(page.nextCursor).not.toBeNull();
      // The first step asks for about twice the page (3), not the page's whole budget (5 a page item).
      const limits = send.mock.calls.map(([command]: any[]) => command.input?.Limit);
      expect(limits).toEqual([3]);
    } finally {
      send.mockRestore();
    }
  });

  it("exports a person's own entries as actor, and erasure puts the opaque id in their place", async () => {
    const entry = AuditEntry.item({
      requestId: 'r-1',
      at: '2026-01-02T03:04:05.000Z',
      month: '2026-01',
      actorKind: 'person',
      actorId: 'admin-1',
      action: 'member.role.set',
      targetId: 'person-1',
      targetIds: ['person-1'],
      changed: true,
      ttl: 1,
    });
    const shown = { postShown: async () => true };
    expect((await exportOf(entry, 'admin-1', shown))?.section).toBe('auditLog');
    expect((await exportOf(entry, 'admin-1', shown))?.view).toMatchObject({ action: 'member.role.set' });
    expect(await exportOf(entry, 'person-1', shown)).toBeNull();
    const subject = { userId: 'person-1', email: 'p@example.com', name: 'P', pseudonym: 'erased-xyz' };
    const erased = await erasureOf(entry, subject);
    expect(erased?.outcome).toBe('kept');
    // What the rewrite sets (its condition holds the item as read).
    const setValues = (writes: any[] | undefined) =>
      JSON.stringify(
        (writes ?? []).map((w) =>
          Object.entries(w.Update?.ExpressionAttributeValues ?? w.Put?.Item ?? {}).filter(([k]) => !k.startsWith(':c')),
        ),
      );
    const set = setValues(erased?.writes);
    expect(set).not.toContain('person-1');
    expect(set).toContain('AUDIT_TARGET#erased-xyz');
    const asActor = await erasureOf(entry, { ...subject, userId: 'admin-1' });
    expect(setValues(asActor?.writes)).toContain('AUDIT_ACTOR#erased-xyz');
    expect(setValues(asActor?.writes)).not.toContain('admin-1');
  });
});
