import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/api/routes/index.ts';
import { PUBLIC_PATH_PREFIX } from '../../shared/http/middlewares/public-answers.ts';
import { avatarPath, legacyAvatarOwnerTag } from '../../shared/people/avatars.ts';
import { changePerson } from '../../shared/people/change-person.ts';
import { createPost, image } from '../feed/helpers.ts';
import { upload as uploadAvatar } from '../people/helpers.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';

/**
 * The public website routes as a website on another origin and a CDN use them: cacheable answers
 * with validators, HEAD, and CORS for any origin without credentials, apart from the signed-in
 * routes' own CORS.
 */
const SITE = 'https://www.example.org';

async function published(content = `public ${uniq()}`) {
  const boss = await admin();
  const a = await newMember({ title: 'Host' });
  const p = await createPost(a.token, { content });
  expect((await api('POST', `/admin/website-posts/${p.id}/approve`, { token: boss.token })).status).toBe(200);
  return { a, p };
}

describe('office updates: caching and CORS of the public routes', () => {
  it('caches only public GETs, all under the prefix whose preflights admit any origin', () => {
    const cached = routes.filter((r) => r.cache);
    expect(cached.map((r) => r.name).sort()).toEqual(['get-office-update', 'list-office-updates']);
    for (const r of cached) {
      expect(r.method).toBe('GET');
      expect(r.auth).toBe('public');
      expect(r.path.startsWith(PUBLIC_PATH_PREFIX)).toBe(true);
    }
    // Nothing signed-in lives under the public prefix (its preflight admits any origin).
    expect(routes.filter((r) => r.path.startsWith(PUBLIC_PATH_PREFIX) && r.auth !== 'public')).toEqual([]);
  });

  it('answers with Cache-Control, a strong ETag, and 304 to a matching If-None-Match', async () => {
    const { p } = await published();
    for (const path of [`/public/office-updates/${p.id}`, '/public/office-updates?limit=5']) {
      // The list is everybody's: another test file may publish between two reads. A read pair whose
      // bodies differ says nothing about the tag, so it is taken again (a few times at most).
      let first = await api('GET', path);
      let second = await api('GET', path);
      for (let attempt = 0; first.text !== second.text && attempt < 5; attempt++) {
        first = second;
        second = await api('GET', path);
      }
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60, stale-while-revalidate=600');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      // The same content gives the same tag (signed URLs are stable within their window).
      expect(second.text).toBe(first.text);
      expect(second.headers.get('etag')).toBe(etag);
      const again = await api('GET', path, { headers: { 'if-none-match': etag } });
      const current = (await api('GET', path)).headers.get('etag');
      if (current !== etag) continue; // published meanwhile: the 304 checks need a list that holds still
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect((await api('GET', path, { headers: { 'if-none-match': `W/${etag}, "other"` } })).status).toBe(304);
      expect((await api('GET', path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    }
  });

  it('keeps the tag of a page that has a next page: its cursor is sealed the same way each time', async () => {
    await published();
    await published();
    const path = '/public/office-updates?limit=1';
    let first = await api('GET', path);
    let second = await api('GET', path);
    // Another test file may publish between two reads: then the first item changes, and the pair is taken again.
    for (let attempt = 0; first.body.items[0].id !== second.body.items[0].id && attempt < 5; attempt++) {
      first = second;
      second = await api('GET', path);
    }
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(second.body.nextCursor).toBe(first.body.nextCursor);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('a change to the post gives a new ETag (a cached copy is not revalidated as current)', async () => {
    const { a, p } = await published();
    const path = `/public/office-updates/${p.id}`;
    const before = (await api('GET', path)).headers.get('etag')!;
    const boss = await admin();
    // Editing sends it back to review; approving again republishes the new text.
    expect((await api('PATCH', `/posts/${p.id}`, { token: a.token, body: { content: 'edited' } })).status).toBe(200);
    expect((await api('POST', `/admin/website-posts/${p.id}/approve`, { token: boss.token })).status).toBe(200);
    const after = await api('GET', path, { headers: { 'if-none-match': before } });
    expect(after.status).toBe(200);
    expect(after.body.content).toBe('edited');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const { p } = await published();
    const get = await api('GET', `/public/office-updates/${p.id}`);
    const head = await api('HEAD', `/public/office-updates/${p.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    expect((await api('HEAD', '/public/office-updates')).status).toBe(200);
    // Signed-in routes keep their single method.
    expect((await api('HEAD', '/health')).status).toBe(404);
  });

  it('admits any origin without credentials; the signed-in routes keep ALLOWED_ORIGINS with credentials', async () => {
    const { p } = await published();
    const res = await api('GET', `/public/office-updates/${p.id}`, { headers: { origin: SITE } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toContain('etag');
    const missing = await api('GET', '/public/office-updates/nothing-here', { headers: { origin: SITE } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect(missing.headers.get('cache-control')).toBe('no-store');

    const preflight = await api('OPTIONS', '/public/office-updates', {
      headers: {
        origin: SITE,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('if-none-match');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

    // A signed-in route answers with credentials for the allowed origins (locally '*': the caller's origin).
    const signedIn = await api('GET', '/health', { headers: { origin: SITE } });
    expect(signedIn.headers.get('access-control-allow-credentials')).toBe('true');
    expect(signedIn.headers.get('access-control-allow-origin')).toBe(SITE);
  });

  it("links the author's avatar by an opaque key: no internal user id anywhere in the answer", async () => {
    const { a, p } = await published();
    const png = await image(300, 300);
    expect((await uploadAvatar('/users/me/avatar', a.token, png)).status).toBe(201);
    const one = await api('GET', `/public/office-updates/${p.id}`);
    expect(one.body.author.image).toMatch(/^http/);
    expect(one.text).not.toContain(a.id);
    const avatar = await fetch(one.body.author.image);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/webp');
  });

  it('never publishes an avatar key of an earlier form, whose tag anyone who knows the id computes', async () => {
    const { a, p } = await published();
    // The tag is base64url, which may itself hold a `_`: the owner part is the tag whole, not the key's first `_` field.
    for (const owner of [legacyAvatarOwnerTag(a.id), a.id]) {
      const key = `${owner}_01m8a00000earlierform.webp`;
      await changePerson(a.id, (u) => ({ ...u, image: avatarPath(key) }), { actorId: a.id });
      const one = await api('GET', `/public/office-updates/${p.id}`);
      expect(one.status).toBe(200);
      expect(one.body.author.image, key).toBeNull();
      expect(one.text).not.toContain(owner);
    }
  });
});
