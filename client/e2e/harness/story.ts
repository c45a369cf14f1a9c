import { after, before } from 'node:test';
import type { ServerProcess } from '@im/dev-servers';
import { openTestEnv, type TestEnv } from '@im/testkit';
import type { Browser } from 'playwright-core';
import { launchBrowser, type BrowserOptions } from './browser.ts';
import { startWebApp } from './server.ts';

/** What a browser story runs against: its servers, the platform serving the built client, and Chromium. */
export interface WebAppStory {
  env: TestEnv;
  server: ServerProcess;
  browser: Browser;
}

/** Settings for the platform; a function when they are only known at start (free ports). */
export type ExtraEnv = Record<string, string> | (() => Promise<Record<string, string>>);

/**
 * Registers the hooks of a story (call it inside `describe`): before the
 * steps, the test servers, the platform (with `extraEnv`) and Chromium (with
 * `browser`'s options) start; after them, all three stop.
 */
export function webAppStory(fileUrl: string, extraEnv: ExtraEnv = {}, browser: BrowserOptions = {}): WebAppStory {
  const story = {} as WebAppStory;
  before(async () => {
    story.env = await openTestEnv(fileUrl);
    story.server = await startWebApp(story.env, typeof extraEnv === 'function' ? await extraEnv() : extraEnv);
    story.browser = await launchBrowser(browser);
  });
  after(async () => {
    await story.browser?.close();
    await story.server?.stop();
    await story.env?.close();
  });
  return story;
}
