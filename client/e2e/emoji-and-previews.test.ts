// Custom emoji and link previews in the web client, in headless Chromium
// against the single instance (OUTBOUND_ALLOW lets the server fetch a page on
// loopback): Olivia adds a custom emoji in the group's settings, reacts with
// it through the full picker (the chip shows its image) and uses it in text;
// a message with a link gets a card with the page's title and its image,
// which the browser loads from the platform, never from the site.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import { collectPageErrors, describePagesOnFailure, register, send } from './harness/app.ts';
import { PNG } from './harness/png.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

/** A web page with OpenGraph tags and an image, on loopback; records which paths were asked for. */
async function startSite() {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '/');
    if (req.url === '/article')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html><head><title>fallback</title>
        <meta property="og:title" content="Gradients explained">
        <meta property="og:description" content="Why blue fades into green">
        <meta property="og:site_name" content="Loopback Weekly">
        <meta property="og:image" content="/cover.png"></head><body>text</body></html>`,
      );
    else if (req.url === '/cover.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether an image finished loading with real pixels (not a broken one). */
const loaded = (img: Locator) =>
  img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0);

describe('custom emoji and link previews in the web client', () => {
  const story = webAppStory(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let site: Awaited<ReturnType<typeof startSite>>;
  let page: Page;

  before(async () => {
    site = await startSite();
  });
  after(() => site?.close());
  afterEach(describePagesOnFailure(() => pages));

  it('lets an admin add a custom emoji and react with it through the picker', async () => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    pages.olivia = page;
    collectPageErrors(page, 'olivia', pageErrors);
    await register(page, story.server.base, 'olivia');
    await page.getByRole('button', { name: 'Create a group' }).first().click();
    await page.getByLabel('Group name').fill('Builders');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();

    await page.getByRole('button', { name: 'Builders: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Builders settings' });
    await settings.getByRole('tab', { name: 'Emoji' }).click();
    await settings.getByText('This group has no custom emoji yet.').waitFor();
    await settings.getByLabel('Emoji name').fill('party_parrot');
    await settings.getByLabel('Emoji image').setInputFiles({ name: 'parrot.png', mimeType: 'image/png', buffer: PNG });
    await settings.getByRole('button', { name: 'Add emoji' }).click();
    const listed = settings.getByRole('list', { name: 'Custom emoji' }).getByRole('img', { name: ':party_parrot:' });
    await listed.waitFor();
    assert.ok(await loaded(listed), 'the uploaded image shows in the list');
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    await send(page, 'Ship it');
    const message = page.getByTestId('message').filter({ hasText: 'Ship it' });
    await message.hover();
    await message.getByRole('button', { name: 'Add reaction' }).click();
    await message.getByRole('button', { name: 'More reactions' }).click();
    const picker = page.getByRole('dialog', { name: 'Pick a reaction' });
    await picker.getByRole('tab', { name: 'Custom' }).click();
    await picker.getByRole('button', { name: ':party_parrot:' }).click();
    const chip = message.getByRole('button', { name: ':party_parrot: 1' });
    await chip.waitFor();
    const chipImage = chip.getByRole('img', { name: ':party_parrot:' });
    await chipImage.waitFor();
    assert.ok(await loaded(chipImage), 'the reaction shows the emoji image');
    await page.screenshot({ path: join(SHOTS, 'custom-emoji-reaction.png') });

    // In message text too.
    await send(page, 'we did it :party_parrot:');
    const inline = page
      .getByTestId('message')
      .filter({ hasText: 'we did it' })
      .getByTestId('message-content')
      .getByRole('img', { name: ':party_parrot:' });
    await inline.waitFor();
    assert.ok(await loaded(inline));
  });

  it("shows a link preview card with the page's title and stored image", async () => {
    await send(page, `read this ${site.url('/article')}`);
    const card = page.getByTestId('message').filter({ hasText: 'read this' }).getByTestId('link-preview');
    await card.waitFor();
    await card.getByRole('link', { name: 'Gradients explained' }).waitFor();
    await card.getByText('Loopback Weekly').waitFor();
    const image = card.locator('img.link-preview-image');
    await image.waitFor();
    assert.ok(await loaded(image), 'the preview image loads');
    assert.match((await image.getAttribute('src')) ?? '', /^\/api\/files\//, 'served by the platform');
    assert.equal(site.asked.filter((p) => p === '/cover.png').length, 1, 'only the server fetched the image');
    await page.screenshot({ path: join(SHOTS, 'link-preview.png') });

    // Its author takes it off.
    await card.getByRole('button', { name: 'Remove preview' }).click();
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('lets the admin remove the emoji: messages show its name as text again', async () => {
    await page.getByRole('button', { name: 'Builders: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Builders settings' });
    await settings.getByRole('tab', { name: 'Emoji' }).click();
    await settings.getByRole('button', { name: 'Remove :party_parrot:' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await settings.getByText('This group has no custom emoji yet.').waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
    const content = page.getByTestId('message').filter({ hasText: 'we did it' }).getByTestId('message-content');
    await content.getByRole('img', { name: ':party_parrot:' }).waitFor({ state: 'detached' });
    assert.match(await content.innerText(), /we did it :party_parrot:/);
    assert.deepEqual(pageErrors, []);
  });
});
