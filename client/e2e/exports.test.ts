// Exports in the web client, in headless Chromium against the single
// instance: Olivia, owner of a group, exports it from the group's settings,
// sees the archive being prepared, then a download link that works without
// her token; in Settings she exports her own data the same way.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import { collectPageErrors, describePagesOnFailure, register, send } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

describe('exports in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  afterEach(describePagesOnFailure(() => pages));

  /** The section's download link once the export is done; its archive fetched without any token is a zip. */
  const downloadFrom = async (section: Locator): Promise<void> => {
    const link = section.getByRole('link', { name: 'Download the archive' });
    await link.waitFor({ timeout: 60_000 });
    const href = await link.getAttribute('href');
    assert.match(href ?? '', /^\/api\/exports\/[0-9a-f]{24}\/archive\?exp=\d+&sig=/);
    const res = await fetch(`${story.server.base}${href}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
  };

  it("lets a group's owner export it from the group settings, and anyone export their own data from Settings", async () => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const page = await context.newPage();
    pages.olivia = page;
    collectPageErrors(page, 'olivia', pageErrors);
    await register(page, story.server.base, 'olivia');
    await page.getByRole('button', { name: 'Create a group' }).first().click();
    await page.getByLabel('Group name').fill('Keepers');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await send(page, 'worth keeping');
    await page.getByTestId('message-content').filter({ hasText: 'worth keeping' }).waitFor();

    await page.getByRole('button', { name: 'Keepers: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Keepers settings' });
    await settings.getByRole('tab', { name: 'Export' }).click();
    const groupExport = settings.getByTestId('export');
    await groupExport.getByRole('button', { name: 'Export' }).click();
    await downloadFrom(groupExport);
    await page.screenshot({ path: join(SHOTS, 'group-export.png') });
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Settings' }).click();
    const mine = page.getByRole('dialog', { name: 'Settings' }).getByTestId('export');
    await mine.scrollIntoViewIfNeeded();
    await mine.getByRole('button', { name: 'Export my data' }).click();
    await downloadFrom(mine);
    assert.deepEqual(pageErrors, []);
  });
});
