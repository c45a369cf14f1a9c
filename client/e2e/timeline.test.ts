// The message timeline in headless Chromium against the single instance.
// Tia writes to Ulf in a DM with a long history: her newest message stays in
// full view as "Seen by" appears under the list and as she stages a file and
// an image (each takes room from the list); scrolled up, "Jump to present"
// counts what Ulf sends and brings her back. Ulf's "is typing…" ends the
// moment his message arrives. A PDF asks for no thumbnail and its card keeps
// its width; times show the full date on hover and "(edited)" ends the line.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import type { DmConverse, Message } from '@im/protocol';
import { type Page } from 'playwright-core';
import { api, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { PNG } from './harness/png.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

const HISTORY = 40;

/** A small PDF: the server keeps its bytes, and makes no thumbnail of it. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/**
 * Waits until the newest message's bottom edge is inside the list's visible
 * area (what the reader sees), or fails at the step deadline saying how far off it is.
 */
async function newestInView(page: Page): Promise<void> {
  await page
    .waitForFunction(() => {
      const list = document.querySelector('[data-testid="message-list"]');
      const rows = Array.from(document.querySelectorAll('[data-testid="message"]'));
      const newest = rows.at(-1);
      if (!list || !newest) return false;
      const box = list.getBoundingClientRect();
      const item = newest.getBoundingClientRect();
      return item.bottom <= box.bottom + 0.5 && item.bottom > box.top;
    })
    .catch(async (err: unknown) => {
      const gap = await page.evaluate(() => {
        const list = document.querySelector('[data-testid="message-list"]')!.getBoundingClientRect();
        const newest = Array.from(document.querySelectorAll('[data-testid="message"]')).at(-1)!.getBoundingClientRect();
        return newest.bottom - list.bottom;
      });
      throw new Error(`the newest message ends ${gap}px below the list's visible area`, { cause: err });
    });
}

describe('the message timeline in the web client', () => {
  const story = webAppStory(import.meta.url, { RATE_LIMITS: 'send=1000/10' });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let tia: Account;
  let ulf: Account;
  let dm: DmConverse;
  let tiaPage: Page;
  let ulfPage: Page;
  afterEach(describePagesOnFailure(() => pages));

  const content = (page: Page, text: string) => page.getByTestId('message-content').filter({ hasText: text });

  before(async () => {
    const base = story.server.base;
    [tia, ulf] = await Promise.all([registerAccount(base, 'tia'), registerAccount(base, 'ulf')]);
    dm = await api<DmConverse>(base, tia.token, 'POST', '/api/dms', { userId: ulf.id });
    for (let i = 1; i <= HISTORY; i += 1)
      await api(base, i % 2 ? ulf.token : tia.token, 'POST', `/api/converses/${dm.id}/messages`, {
        content: `history ${i}`,
      });
    await api(base, tia.token, 'POST', `/api/converses/${dm.id}/ack`, { seq: HISTORY });
    tiaPage = await openWindow(story, { pages, errors: pageErrors }, 'tia', tia, `/dm/${dm.id}`);
    await content(tiaPage, `history ${HISTORY}`).waitFor();
  });

  it('keeps Tia\'s newest message in view as "Seen by" appears under the list', async () => {
    await send(tiaPage, 'Did you get the plan?');
    await tiaPage.locator('[data-pending]').waitFor({ state: 'detached' });
    await newestInView(tiaPage);
    ulfPage = await openWindow(story, { pages, errors: pageErrors }, 'ulf', ulf, `/dm/${dm.id}`);
    await content(ulfPage, 'Did you get the plan?').waitFor();
    await tiaPage.bringToFront();
    await tiaPage.getByTestId('seen-by').filter({ hasText: 'Seen by ulf' }).waitFor();
    await newestInView(tiaPage);
  });

  it('keeps it in view as a file and an image are staged and one is taken off', async () => {
    const input = tiaPage.getByTestId('file-input');
    await input.setInputFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: PDF });
    await tiaPage.getByTestId('upload').filter({ hasText: 'plan.pdf' }).waitFor();
    await newestInView(tiaPage);
    await input.setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: PNG });
    await tiaPage.getByTestId('upload').filter({ hasText: 'map.png' }).waitFor();
    await tiaPage.waitForFunction(() => !document.querySelector('.upload.uploading'));
    await newestInView(tiaPage);
    await input.setInputFiles({ name: 'draft.pdf', mimeType: 'application/pdf', buffer: PDF });
    await tiaPage.getByTestId('upload').filter({ hasText: 'draft.pdf' }).waitFor();
    await newestInView(tiaPage);
    await tiaPage.getByRole('button', { name: 'Remove draft.pdf' }).click();
    await tiaPage.getByTestId('upload').filter({ hasText: 'draft.pdf' }).waitFor({ state: 'detached' });
    await newestInView(tiaPage);
    // Sent: the list gets its room back and shows the new message (the PDF card and the image) in full.
    await tiaPage.getByRole('textbox', { name: 'Message' }).fill('Here it is');
    await tiaPage.getByRole('button', { name: 'Send', exact: true }).click();
    await tiaPage.getByTestId('upload').first().waitFor({ state: 'detached' });
    await content(tiaPage, 'Here it is').waitFor();
    await tiaPage.waitForFunction(() => {
      const img = Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="thumbnail"]')).at(-1);
      return img !== undefined && img.complete && img.naturalWidth > 0;
    });
    await newestInView(tiaPage);
  });

  it('offers "Jump to present" once scrolled up, counting what arrives below, and brings Tia back', async () => {
    const list = tiaPage.getByTestId('message-list');
    const jump = tiaPage.getByTestId('jump-to-present');
    assert.equal(await jump.count(), 0, 'at the newest: no jump offered');
    await list.hover();
    await tiaPage.mouse.wheel(0, -1500);
    await jump.waitFor();
    await api(story.server.base, ulf.token, 'POST', `/api/converses/${dm.id}/messages`, { content: 'Got it' });
    await api(story.server.base, ulf.token, 'POST', `/api/converses/${dm.id}/messages`, { content: 'Looks good' });
    await jump.filter({ hasText: '2 new messages' }).waitFor();
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    await content(tiaPage, 'Looks good').waitFor();
    await newestInView(tiaPage);
  });

  it('ends "ulf is typing…" the moment his message arrives', async () => {
    await ulfPage.bringToFront();
    await ulfPage.getByRole('textbox', { name: 'Message' }).pressSequentially('On my way', { delay: 20 });
    const typing = tiaPage.getByTestId('typing');
    await typing.filter({ hasText: 'ulf is typing…' }).waitFor();
    await ulfPage.getByRole('textbox', { name: 'Message' }).press('Enter');
    // The same update that shows the message takes the typing line away (it used to stay 2 s more).
    const typingWhenShown = await tiaPage.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const shown = () =>
            Array.from(document.querySelectorAll('[data-testid="message-content"]')).some(
              (e) => e.textContent === 'On my way',
            );
          const check = () => {
            if (!shown()) return false;
            resolve(document.querySelector('[data-testid="typing"]')!.textContent ?? '');
            return true;
          };
          if (check()) return;
          const observer = new MutationObserver(() => {
            if (check()) observer.disconnect();
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        }),
    );
    assert.equal(typingWhenShown, '');
  });

  it('asks for no thumbnail of a PDF, and keeps its card to a fixed width', async () => {
    const history = await api<Message[]>(
      story.server.base,
      tia.token,
      'GET',
      `/api/converses/${dm.id}/messages?limit=10`,
    );
    const withFiles = history.find((m) => m.content === 'Here it is')!;
    const asked: string[] = [];
    tiaPage.on('request', (req) => {
      if (req.url().includes('/url?') && req.url().includes('thumbnail')) asked.push(req.url());
    });
    // Shown afresh (a reload): every attachment is drawn again.
    await tiaPage.reload();
    const card = tiaPage.getByTestId('file-card').filter({ hasText: 'plan.pdf' });
    await card.waitFor();
    await tiaPage.waitForFunction(() => {
      const img = Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="thumbnail"]')).at(-1);
      return img !== undefined && img.complete && img.naturalWidth > 0;
    });
    const [pdfId, imageId] = withFiles.attachments;
    assert.deepEqual(
      asked.filter((url) => url.includes(pdfId!)),
      [],
    );
    assert.ok(
      asked.some((url) => url.includes(imageId!)),
      `the image's thumbnail is still asked for: ${asked}`,
    );
    const width = (await card.boundingBox())!.width;
    const listWidth = (await tiaPage.getByTestId('message-list').boundingBox())!.width;
    assert.ok(width <= 360, `the card is ${width}px wide`);
    assert.ok(width < listWidth / 2, 'the card does not stretch across the list');
  });

  it('shows the full date and time on hover, and "(edited)" at the end of the text', async () => {
    const history = await api<Message[]>(
      story.server.base,
      tia.token,
      'GET',
      `/api/converses/${dm.id}/messages?limit=10`,
    );
    const mine = history.findLast((m) => m.authorId === tia.id && m.content === 'Here it is')!;
    await api(story.server.base, tia.token, 'PATCH', `/api/messages/${mine.id}`, { content: 'Here it is, v2' });
    const message = tiaPage.getByTestId('message').filter({ has: content(tiaPage, 'Here it is, v2') });
    const edited = message.getByTestId('edited');
    await edited.waitFor();
    assert.equal(await edited.innerText(), '(edited)');
    const [text, mark] = await Promise.all([message.locator('.markdown p').last().boundingBox(), edited.boundingBox()]);
    assert.ok(mark!.y >= text!.y - 1 && mark!.y + mark!.height <= text!.y + text!.height + 1, 'on the same line');

    const time = tiaPage.getByTestId('message-time').last();
    const shown = await time.evaluate((e) => {
      // What the browser itself says of that moment, in its time zone.
      const at = new Date(e.getAttribute('datetime')!);
      const date = new Intl.DateTimeFormat('en', { dateStyle: 'full' }).format(at);
      return { title: e.getAttribute('title'), expected: `${date} at ${at.toLocaleTimeString('en')}` };
    });
    assert.equal(shown.title, shown.expected);
    assert.deepEqual(pageErrors, []);
  });
});
