// Markdown in the web client, in headless Chromium against the single
// instance: Mara sends Markdown and sees it rendered (emphasis, strike, code
// highlighted once the highlighter loads, lists, quotes, safe links), the
// server keeps exactly what she typed, a `javascript:` link and raw HTML stay
// inert text, and a spoiler stays covered until she clicks it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, before, describe, it } from 'node:test';
import type { Group, Message } from '@im/protocol';
import { type Locator, type Page } from 'playwright-core';
import { api } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, register, send } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const RICH = [
  '**Release** notes, ~~draft~~ *final*, see `npm test`:',
  '- one',
  '- two',
  '',
  '> quoted wisdom',
  '',
  '```ts',
  'const answer: number = 42;',
  '```',
  'Docs: https://example.org/guide',
].join('\n');

const HOSTILE = '[click me](javascript:window.__pwned=1) <img src=x onerror="window.__pwned=2"> <b>not bold</b>';

describe('Markdown in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  let page: Page;
  let token: string;
  let converseId: string;

  afterEach(describePagesOnFailure(() => ({ mara: page })));

  /** The newest rendered message with `text` in it. */
  const message = (text: string): Locator => page.getByTestId('message-content').filter({ hasText: text }).last();

  before(async () => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    collectPageErrors(page, 'mara', pageErrors);
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await register(page, story.server.base, 'mara');
    token = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    await page.getByRole('button', { name: 'Create a group' }).first().click();
    await page.getByLabel('Group name').fill('Writers');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    const [, , groupId] = new URL(page.url()).pathname.split('/');
    const group = await api<Group>(story.server.base, token, 'GET', `/api/groups/${groupId}`);
    converseId = group.panels[0]!.converseId;
  });

  it('renders Markdown and sends exactly what was typed', async () => {
    await send(page, RICH);
    const shown = message('Release');
    await shown.locator('pre code.hljs').waitFor();
    assert.equal(await shown.locator('strong').innerText(), 'Release');
    assert.equal(await shown.locator('s').innerText(), 'draft');
    assert.equal(await shown.locator('em').innerText(), 'final');
    assert.equal(await shown.locator('p code').innerText(), 'npm test');
    assert.deepEqual(await shown.locator('ul > li').allInnerTexts(), ['one', 'two']);
    assert.equal(await shown.locator('blockquote').innerText(), 'quoted wisdom');
    assert.equal(await shown.locator('pre .hljs-keyword').first().innerText(), 'const');
    assert.equal(await shown.locator('pre').innerText(), 'const answer: number = 42;');
    const link = shown.getByRole('link', { name: 'https://example.org/guide' });
    assert.equal(await link.getAttribute('rel'), 'nofollow noopener noreferrer ugc');
    assert.equal(await link.getAttribute('target'), '_blank');
    await page.screenshot({ path: join(SHOTS, 'markdown.png') });

    const history = await api<Message[]>(story.server.base, token, 'GET', `/api/converses/${converseId}/messages`);
    assert.equal(history.at(-1)?.content, RICH, 'the server keeps the text as typed');
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), '', 'the composer is cleared');
  });

  it('keeps a javascript: link and raw HTML as inert text', async () => {
    await send(page, HOSTILE);
    const shown = message('click me');
    await shown.waitFor();
    assert.equal(await shown.innerText(), HOSTILE);
    assert.equal(await shown.locator('a, img, b, script').count(), 0);
    await shown.getByText('click me').click();
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(pageErrors, []);
  });

  it('covers a spoiler until it is clicked', async () => {
    await send(page, 'The killer is ||the gardener||, obviously.');
    // The confirmed copy replaces the pending one: read the style of the one that stays.
    await page.locator('[data-pending]').waitFor({ state: 'detached' });
    const shown = message('The killer is');
    const spoiler = shown.getByRole('button', { name: /spoiler/i });
    await spoiler.waitFor();
    // Covered: the words are there but transparent.
    const hidden = await spoiler.locator('.spoiler-text').evaluate((e) => getComputedStyle(e).color);
    assert.equal(hidden, 'rgba(0, 0, 0, 0)');
    await spoiler.click();
    const revealed = shown.locator('.spoiler.shown');
    await revealed.waitFor();
    assert.equal(await revealed.innerText(), 'the gardener');
    assert.notEqual(await revealed.evaluate((e) => getComputedStyle(e).color), 'rgba(0, 0, 0, 0)');
    assert.equal(await shown.getByRole('button', { name: /spoiler/i }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
