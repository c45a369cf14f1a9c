// The Import page, in headless Chromium against the single instance: Root,
// a server admin, uploads a small Slack export (made here: two people, one
// channel, three messages) from the admin console's Import tab for a group
// of his own. The page follows the job to its end and shows what it wrote;
// the import is listed among the recent ones, and the people it made
// accounts for are marked imported in the Users tab, ready for a claim link.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import yazl from 'yazl';
import { openAs, registerAccount, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

/** Seconds since 1970 as Slack writes a message's `ts` (a decimal string, unique per channel). */
const ts = (iso: string, n: number) => `${Date.parse(iso) / 1000}.00000${n}`;

/** A Slack export in miniature: users.json, channels.json and one day of #general. */
function slackExport(): Promise<Buffer> {
  const users = [
    { id: 'U0ERIN', name: 'erin', real_name: 'Erin Example', profile: { email: 'erin@example.org' } },
    { id: 'U0FRED', name: 'fred', real_name: 'Fred Example', profile: { email: 'fred@example.org' } },
  ];
  const channels = [
    {
      id: 'C0GENERAL',
      name: 'general',
      created: Date.parse('2024-01-01T00:00:00Z') / 1000,
      creator: 'U0ERIN',
      members: ['U0ERIN', 'U0FRED'],
      topic: { value: 'Everything' },
      purpose: { value: '' },
    },
  ];
  const day = [
    { type: 'message', user: 'U0ERIN', text: 'Hello from the old chat', ts: ts('2024-01-01T09:00:00Z', 1) },
    { type: 'message', user: 'U0FRED', text: 'Hi *Erin*', ts: ts('2024-01-01T09:01:00Z', 2) },
    { type: 'message', user: 'U0ERIN', text: 'Moving over today', ts: ts('2024-01-01T09:02:00Z', 3) },
  ];
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(users)), 'users.json');
  zip.addBuffer(Buffer.from(JSON.stringify(channels)), 'channels.json');
  zip.addBuffer(Buffer.from(JSON.stringify(day)), 'general/2024-01-01.json');
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    zip.outputStream.on('data', (part: Buffer) => parts.push(part));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    zip.outputStream.on('error', reject);
  });
}

describe('the Import page in the web client', () => {
  const story = webAppStory(import.meta.url, { ADMIN_USERNAMES: 'root' });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let root: Account;

  afterEach(describePagesOnFailure(() => pages));

  const adminConsole = (page: Page) => page.getByRole('dialog', { name: 'Admin console' });

  it('lets root upload a Slack export and follow it to its summary', async () => {
    root = await registerAccount(story.server.base, 'root');
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const page = await context.newPage();
    pages.root = page;
    collectPageErrors(page, 'root', pageErrors);
    await openAs(page, story.server.base, root);
    await page.getByRole('button', { name: 'Admin console' }).click();
    const console_ = adminConsole(page);
    await console_.getByRole('tab', { name: 'Import' }).click();
    await console_.getByText('No imports yet.').waitFor();

    const form = console_.getByRole('form', { name: 'Import an export' });
    await form.getByLabel('Export from').selectOption('slack');
    assert.equal(await form.getByLabel('Owner of the new group (username)').inputValue(), 'root', 'me by default');
    await form
      .getByLabel('Export file')
      .setInputFiles({ name: 'acme-slack.zip', mimeType: 'application/zip', buffer: await slackExport() });
    await form.getByRole('button', { name: 'Start import' }).click();

    const job = console_.getByTestId('import-job');
    await job.getByText('acme-slack.zip').waitFor();
    const ended = job.locator('[data-testid="import-status"]:is([data-status="done"], [data-status="failed"])');
    await ended.waitFor({ timeout: 60_000 });
    const failure = job.getByRole('alert');
    assert.equal(
      await ended.getAttribute('data-status'),
      'done',
      (await failure.count()) ? await failure.innerText() : '',
    );
    const summary = job.getByTestId('import-summary');
    assert.equal(await summary.getByTestId('summary-groups').textContent(), '1');
    assert.equal(await summary.getByTestId('summary-messages').textContent(), '3');
    assert.equal(await summary.getByTestId('summary-users').textContent(), '2');
    await page.screenshot({ path: join(SHOTS, 'admin-import.png') });

    const recent = console_.getByRole('list', { name: 'Recent imports' }).getByTestId('import-row');
    assert.equal(await recent.count(), 1);
    assert.match((await recent.first().textContent()) ?? '', /acme-slack\.zip.*Slack · Done/);
  });

  it('marks the accounts the import made as imported, with a claim link to hand over', async () => {
    const console_ = adminConsole(pages.root!);
    await console_.getByRole('tab', { name: 'Users' }).click();
    await console_.getByLabel('Search users').fill('erin');
    const row = console_.getByTestId('admin-user').filter({ hasText: '@erin' });
    await row.getByTestId('user-imported').waitFor();
    await row.getByRole('button', { name: 'Claim link' }).click();
    assert.match(await row.getByTestId('claim-url').inputValue(), /\/claim\?token=/);
    assert.deepEqual(pageErrors, []);
  });
});
