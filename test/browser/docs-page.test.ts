import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeMethods } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { api, baseUrl } from '../support/api.ts';
import { hasChromium, launchChromium } from '../support/chromium.ts';
import { FIRST_ADMIN as ADMIN } from '../support/first-admin.ts';

/**
 * The reference page as a newcomer opens it in a browser: without a session, a sign-in form (not
 * raw JSON); signing in from it lists every operation, and "Try it out" runs one with the session,
 * its curl snippet carrying the bearer header.
 */
describe('the reference page without a session', () => {
  it('answers a JSON client without a session with the common error body, a browser with a form', async () => {
    const json = await api('GET', '/docs', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(401);
    expect(json.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const html = await api('GET', '/docs', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(html.status).toBe(401);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toContain('/api/v1/auth/sign-in/email');
  });
});

describe.skipIf(!hasChromium)('the reference page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in from the page, lists the operations and runs "Try it out" with the bearer header', async () => {
    // A tall window: Swagger UI renders a long list of operations (150 tags and operations or more)
    // virtualised, only what is on screen, and "Try it out" below needs get-session drawn.
    const context = await browser.newContext({ viewport: { width: 1280, height: 2400 } });
    const page = await context.newPage();
    const first = await page.goto(`${baseUrl()}/api/v1/docs`);
    expect(first?.status()).toBe(401);

    // A wrong password shows the API's message and stays on the form.
    await page.fill('input[name=email]', ADMIN.email);
    await page.fill('input[name=password]', 'not-the-password');
    await page.click('button[type=submit]');
    await expect.poll(() => page.textContent('#error'), { timeout: 30_000 }).toMatch(/\S/);

    await page.fill('input[name=password]', ADMIN.password);
    await Promise.all([page.waitForEvent('load'), page.click('button[type=submit]')]);
    // One block per operation: every route but the stream and the catch-all, plus HEAD where a route answers it.
    const documented = routes
      .filter((r) => !r.streaming && r.path !== '$default' && r.method !== 'ANY')
      .flatMap(routeMethods).length;
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const listed = () => page.evaluate<number>('window.ui.specSelectors.operations().size');
    await expect.poll(listed, { timeout: 30_000 }).toBe(documented);
    // Every one is drawn as the page scrolls to it: the last operation appears at the bottom.
    const last = routes.filter((r) => !r.streaming && r.path !== '$default' && r.method !== 'ANY').at(-1)!;
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await page.locator(`#operations-${last.area}-${last.name}`).waitFor({ timeout: 30_000 });
    await page.evaluate('window.scrollTo(0, 0)');

    // Try it out: GET /api/v1/auth/get-session, answered with the page's session.
    const op = page.locator('#operations-auth-get-session');
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/200/);
    expect(await op.locator('.live-responses-table').textContent()).toContain(ADMIN.email);
    const curl = await op.locator('.curl-command').textContent();
    expect(curl).toMatch(/Authorization: Bearer [A-Za-z0-9_-]{20,}/);
    await context.close();
  });
});
