/**
 * Headless Chromium for the playground test: Debian's /usr/bin/chromium
 * driven by playwright-core, never a downloaded browser. A fresh profile per
 * launch, and no background traffic (updates, sync, QUIC, first-run pings).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export interface HeadlessBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<HeadlessBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'docshape-chromium-'));
  // playwright passes the profile as --user-data-dir itself (it refuses the flag in args).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
