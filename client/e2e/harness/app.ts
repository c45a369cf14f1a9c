import { type Page } from 'playwright-core';

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
