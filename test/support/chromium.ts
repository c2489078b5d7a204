import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it), driven by playwright-core.
 * Outside CI a machine without it skips the browser tests with this message; under `CI=true` a
 * missing browser fails them, so CI never passes by skipping.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export const MISSING_CHROMIUM =
  'No Chromium binary (/usr/bin/chromium, or CHROMIUM_PATH): the browser tests are skipped. Install it with `apt-get install chromium`.';

if (!CHROMIUM_PATH) {
  if (process.env.CI === 'true') throw new Error(`${MISSING_CHROMIUM} Under CI this is a failure.`);
  console.warn(MISSING_CHROMIUM);
}

export const hasChromium = !!CHROMIUM_PATH;

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI and this machine run the tests as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}
