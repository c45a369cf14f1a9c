import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (scripts/setup.sh installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserOptions {
  /**
   * Calls: Chromium's made-up camera (a test pattern) and microphone (a beep)
   * instead of devices, without asking; sound plays without a click first.
   */
  fakeMedia?: boolean;
}

/** What a call story's browser is started with (see BrowserOptions.fakeMedia). */
const FAKE_MEDIA_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * Headless Chromium as these machines need it: no sandbox (root), no GPU, and
 * none of the background connections a closed network refuses.
 */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: run 'bash scripts/setup.sh test' (installs Debian's chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.fakeMedia ? FAKE_MEDIA_ARGS : []),
    ],
  });
}
