import { createServer, type Server } from 'node:http';
import type { Browser, CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/runtime.ts';
import { createPost, image, upload } from '../feed/helpers.ts';
import { admin, api, baseUrl, newMember, uniq } from '../support/api.ts';
import { hasChromium, launchChromium } from '../support/chromium.ts';

/**
 * The public office updates as a company website uses them: a static page on another origin renders
 * the feed with its images; a second page view takes the images from the browser's cache; a
 * conditional refetch of the feed gets 304.
 */
const websitePage = (api: string, tag: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Office updates</title></head>
<body><main id="feed"></main>
<script>
(async () => {
  const url = ${JSON.stringify(`${api}/api/v1/public/office-updates?limit=24`)};
  const res = await fetch(url);
  const page = await res.json();
  const feed = document.getElementById('feed');
  for (const u of page.items.filter((u) => u.content.includes(${JSON.stringify(tag)}))) {
    const article = document.createElement('article');
    const text = document.createElement('p');
    text.textContent = u.content;
    article.append(text);
    for (const img of u.images) {
      const el = new Image();
      el.crossOrigin = 'anonymous';
      el.src = img.url;
      article.append(el);
    }
    feed.append(article);
  }
  await Promise.all([...document.images].map((i) => i.decode()));
  // The conditional refetch a script can make: its ETag (exposed to scripts) back as If-None-Match.
  const again = await fetch(url, { cache: 'no-store', headers: { 'if-none-match': res.headers.get('etag') } });
  document.body.dataset.etag = res.headers.get('etag') || '';
  document.body.dataset.refetch = String(again.status);
  document.body.dataset.ready = 'true';
})().catch((e) => { document.body.dataset.error = String(e); });
</script></body></html>`;

describe.skipIf(!hasChromium)('the public website in Chromium', () => {
  let browser: Browser;
  let site: Server;
  let siteUrl: string;
  let html = '';
  beforeAll(async () => {
    browser = await launchChromium();
    const port = await freePort();
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    });
    await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));
    // Another origin than the API's (127.0.0.1 vs localhost, and another port).
    siteUrl = `http://localhost:${port}/`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('renders the office updates with their images, loads each image once over two views, and gets 304', async () => {
    const boss = await admin();
    const a = await newMember();
    const tag = `Site${uniq()}`;
    const shots = await Promise.all(
      [
        [1600, 900],
        [300, 200],
      ].map(async ([w, h]) => (await upload(a.token, await image(w, h), 'p.png', 'image/png')).body.path),
    );
    const p = await createPost(a.token, { content: `From the office #${tag}`, images: shots });
    expect((await api('POST', `/admin/website-posts/${p.id}/approve`, { token: boss.token })).status).toBe(200);
    html = websitePage(baseUrl(), tag);

    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // Media answers that came over the network (not from the memory or disk cache), by URL.
    const fromNetwork = new Map<string, number>();
    const servedFromCache = new Set<string>();
    cdp.on('Network.requestServedFromCache', (e) => servedFromCache.add(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      if (e.type !== 'Image') return;
      if (e.response.fromDiskCache || servedFromCache.has(e.requestId)) return;
      fromNetwork.set(e.response.url, (fromNetwork.get(e.response.url) ?? 0) + 1);
    });

    const view = async () => {
      await page.goto(siteUrl);
      // Strings, not functions: the test's TypeScript has no DOM types; this runs in the page.
      await page.waitForFunction('document.body.dataset.ready || document.body.dataset.error', null, {
        timeout: 30_000,
      });
      expect(await page.evaluate('document.body.dataset.error')).toBeUndefined();
      return page.evaluate<{
        text: string;
        images: { src: string; width: number }[];
        refetch: string;
        etag: string;
      }>(`({
        text: document.querySelector('article p')?.textContent,
        images: [...document.images].map((i) => ({ src: i.src, width: i.naturalWidth })),
        refetch: document.body.dataset.refetch,
        etag: document.body.dataset.etag,
      })`);
    };
    const first = await view();
    expect(first.text).toBe(`From the office #${tag}`);
    expect(first.images.map((i) => i.width)).toEqual([1200, 300]);
    expect(first.refetch).toBe('304');
    expect(first.etag).toMatch(/^"/);

    const second = await view();
    expect(second.images.map((i) => i.src)).toEqual(first.images.map((i) => i.src));
    expect(second.refetch).toBe('304');
    for (const { src } of first.images) expect(fromNetwork.get(src), src).toBe(1);
    await context.close();
  });
});
