import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { SHOTS } from './server.ts';

export const PASSWORD = 'correct horse battery';

/** Registers through the app's own form and waits for the signed-in screen. */
export async function register(page: Page, base: string, username: string): Promise<void> {
  await page.goto(base);
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Settings' }).waitFor();
  await page.getByTestId('connection').and(page.locator('[data-state="online"]')).waitFor({ state: 'attached' });
}

/** Types a message in the open converse and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

/** The text of every message shown, in order (confirmed and pending). */
export async function messageTexts(page: Page): Promise<string[]> {
  return page.getByTestId('message-content').allInnerTexts();
}

/**
 * What a page shows, for the log of a failed step: a timeout alone does not
 * say whether the element was missing, hidden or different.
 */
export async function describePage(page: Page, label: string, screenshotPath: string): Promise<string> {
  try {
    await page.screenshot({ path: screenshotPath });
    const state = await page.evaluate(() => ({
      path: location.pathname,
      connection: document.querySelector('[data-testid="connection"]')?.getAttribute('data-state') ?? null,
      title: document.querySelector('[data-testid="converse-title"]')?.textContent ?? null,
      messages: Array.from(document.querySelectorAll('[data-testid="message-content"]'), (e) => e.textContent),
      hiddenList:
        document.querySelector<HTMLElement>('[data-testid="virtuoso-item-list"]')?.style.visibility === 'hidden',
      composer: document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.value ?? null,
    }));
    return `${label}: ${JSON.stringify(state)} (screenshot ${screenshotPath})`;
  } catch (err) {
    return `${label}: could not be read (${err instanceof Error ? err.message : String(err)})`;
  }
}

/**
 * An afterEach hook: when the finished test failed, a screenshot and a
 * description of each page (named by its label) go to the log.
 */
export const describePagesOnFailure =
  (pages: () => Record<string, Page | undefined>) =>
  async (t: { name: string; passed?: boolean }): Promise<void> => {
    // afterEach gets the finished test's context (typed as either kind).
    if (!('passed' in t) || t.passed) return;
    const stem = join(SHOTS, `failed-${t.name.replace(/\W+/g, '-').slice(0, 60)}`);
    for (const [label, page] of Object.entries(pages()))
      if (page) console.error(await describePage(page, label, `${stem}-${label}.png`));
  };

/**
 * Collects what goes wrong in a page into `errors`: uncaught exceptions and,
 * for the app's pages, console errors (React reports misuse there) other
 * than failed loads and dropped connections, which the tests cause on purpose.
 */
export function collectPageErrors(page: Page, label: string, errors: string[], console = true): void {
  page.on('pageerror', (err) => errors.push(`${label}: ${err.message}`));
  if (!console) return;
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource|ERR_CONNECTION|WebSocket/.test(msg.text()))
      errors.push(`${label}: ${msg.text()}`);
  });
}
