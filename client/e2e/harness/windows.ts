import { type Page } from 'playwright-core';
import { openAs, type Account } from './api.ts';
import { collectPageErrors } from './app.ts';
import type { WebAppStory } from './story.ts';
import { STEP_DEADLINE_MS } from './deadline.ts';

/** The pages a story opened (kept for failure reports) and the errors they raised. */
export interface Windows {
  pages: Record<string, Page>;
  errors: string[];
}

/** Watches a page: its errors (React reports misuse on the console) are collected, and it is kept under `label`. */
export function watchPage(windows: Windows, label: string, page: Page): void {
  windows.pages[label] = page;
  collectPageErrors(page, label, windows.errors);
}

export interface WindowOptions {
  /** 1280x800 unless given (a phone: 390x844). */
  viewport?: { width: number; height: number };
  /** Browser permissions granted to the app's origin, such as `microphone` and `camera` for calls. */
  permissions?: string[];
}

/** A window of its own (a new browser context) signed in as `account` at `path`, watched. */
export async function openWindow(
  story: WebAppStory,
  windows: Windows,
  label: string,
  account: Account,
  path?: string,
  options: WindowOptions = {},
): Promise<Page> {
  const context = await story.browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  context.setDefaultTimeout(STEP_DEADLINE_MS);
  const page = await context.newPage();
  watchPage(windows, label, page);
  await openAs(page, story.server.base, account, path);
  return page;
}
