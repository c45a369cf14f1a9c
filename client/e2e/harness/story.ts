import { after, before } from 'node:test';
import type { ServerProcess } from '@im/dev-servers';
import { openTestEnv, type TestEnv } from '@im/testkit';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startWebApp } from './server.ts';

/** What a browser story runs against: its servers, the platform serving the built client, and Chromium. */
export interface WebAppStory {
  env: TestEnv;
  server: ServerProcess;
  browser: Browser;
}

/**
 * Registers the hooks of a story (call it inside `describe`): before the
 * steps, the test servers, the platform (with `extraEnv`) and Chromium start;
 * after them, all three stop.
 */
export function webAppStory(fileUrl: string, extraEnv: Record<string, string> = {}): WebAppStory {
  const story = {} as WebAppStory;
  before(async () => {
    story.env = await openTestEnv(fileUrl);
    story.server = await startWebApp(story.env, extraEnv);
    story.browser = await launchBrowser();
  });
  after(async () => {
    await story.browser?.close();
    await story.server?.stop();
    await story.env?.close();
  });
  return story;
}
