// The installable app offline: Alice reaches the server through a proxy that
// can cut her network. Her browser keeps the app shell (service worker) and
// the converse she read (IndexedDB): with no network it opens signed in,
// shows that converse and says it is offline; what she sends meanwhile waits,
// survives a reload, and goes out once when the network comes back.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { ServerProcess } from '@im/dev-servers';
import { type BrowserContext, type Page } from 'playwright-core';
import { groupWithMembers, openAs, registerAccount, typedApi, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, messageTexts, send } from './harness/app.ts';
import { type CuttableProxy } from './harness/cuttable-proxy.ts';
import { openTwoWindows, type TwoWindows } from './harness/two-windows.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';
import { SHOTS } from './harness/server.ts';

/**
 * Waits until the page's offline copy (IndexedDB `im-offline`) holds the account's snapshot and a
 * converse with `text` among its messages: the page looks again after each of its saves (about a
 * second apart) until the step's deadline. It never makes the database itself (the app does).
 */
async function waitUntilKept(page: Page, text: string): Promise<void> {
  const kept = await page.evaluate(
    async ({ wanted, deadline }) => {
      const holds = () =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open('im-offline');
          open.onupgradeneeded = () => open.transaction?.abort();
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(['snapshots', 'converses']);
            const snapshots = tx.objectStore('snapshots').count();
            const converses = tx.objectStore('converses').getAll();
            tx.oncomplete = () => {
              db.close();
              const all = converses.result as Array<{ items: Array<{ content: string }> }>;
              resolve(snapshots.result > 0 && all.some((c) => c.items.some((m) => m.content === wanted)));
            };
          };
        });
      const end = Date.now() + deadline;
      while (Date.now() < end) {
        if (await holds()) return true;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return false;
    },
    { wanted: text, deadline: STEP_DEADLINE_MS },
  );
  assert.ok(kept, `the offline copy never held "${text}"`);
}

describe('the app offline', () => {
  let windows: TwoWindows;
  let server: ServerProcess;
  let proxy: CuttableProxy;
  let aliceContext: BrowserContext;
  let alice: Page;
  let bob: Page;
  let aliceAccount: Account;
  let bobAccount: Account;
  let converseId: string;
  const pageErrors: string[] = [];

  before(async () => {
    windows = await openTwoWindows(import.meta.url);
    ({ server, proxy, aliceContext, alice, bob } = windows);
    // Offline, the page's calls fail by design (the network errors are not the app's).
    collectPageErrors(alice, 'alice', pageErrors, false);
    collectPageErrors(bob, 'bob', pageErrors);
    aliceAccount = await registerAccount(server.base, 'alice');
    bobAccount = await registerAccount(server.base, 'bob');
    ({ converseId } = await groupWithMembers(server.base, aliceAccount, 'Offline team', [bobAccount]));
    for (const n of [1, 2, 3]) {
      await typedApi(server.base, bobAccount.token).call('chat.send', { converseId, content: `Read before ${n}` });
    }
  });

  afterEach(describePagesOnFailure(() => ({ alice, bob })));

  after(async () => {
    await windows?.close();
    assert.deepEqual(pageErrors, []);
  });

  it('is installable: a valid manifest with icons, and an active service worker', async () => {
    // Served as what they are, and looked at again at every load (a new build shows at the next one).
    const manifestRes = await fetch(`${server.base}/manifest.webmanifest`);
    assert.equal(manifestRes.headers.get('content-type'), 'application/manifest+json; charset=utf-8');
    const workerRes = await fetch(`${server.base}/sw.js`);
    assert.equal(workerRes.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(workerRes.headers.get('cache-control'), 'no-cache');
    assert.match(await workerRes.text(), /showNotification/);
    const manifest = (await manifestRes.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    assert.equal(manifest.name, 'Loquat');
    assert.equal(manifest.start_url, '/');
    assert.equal(manifest.display, 'standalone');
    const sizes = manifest.icons.map((i) => `${i.sizes}${i.purpose === 'maskable' ? ' maskable' : ''}`);
    for (const size of ['192x192', '512x512', '512x512 maskable']) assert.ok(sizes.includes(size), sizes.join());
    for (const icon of manifest.icons) {
      const res = await fetch(new URL(icon.src, `${server.base}/`));
      assert.equal(res.status, 200, icon.src);
      assert.equal(res.headers.get('content-type'), 'image/png');
    }

    await openAs(alice, proxy.base, aliceAccount, `/c/${converseId}`);
    await alice.getByTestId('message-content').filter({ hasText: 'Read before 3' }).waitFor();
    // Registered at start; active once it kept the app shell.
    const worker = await alice.evaluate(async (deadline) => {
      const never = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no service worker became active')), deadline),
      );
      const registration = await Promise.race([navigator.serviceWorker.ready, never]);
      return { scope: registration.scope, script: registration.active?.scriptURL };
    }, STEP_DEADLINE_MS);
    assert.equal(worker.scope, `${proxy.base}/`);
    assert.equal(worker.script, `${proxy.base}/sw.js`);
    // The product's name ends the tab's title (after where the app is).
    assert.match(await alice.title(), /(^| · )Loquat$/);
  });

  it('opens with no network, signed in, showing the converse read before and saying it is offline', async () => {
    // The converse is kept on the device (a moment after it was shown).
    await waitUntilKept(alice, 'Read before 3');
    await aliceContext.setOffline(true);
    proxy.cut();
    await alice.reload();
    await alice.getByTestId('connection').and(alice.locator('[data-state="offline"]')).waitFor();
    await alice.getByText('Offline: showing the messages saved on this device').waitFor();
    await alice.getByTestId('message-content').filter({ hasText: 'Read before 3' }).waitFor();
    assert.deepEqual(await messageTexts(alice), ['Read before 1', 'Read before 2', 'Read before 3']);
    await alice.screenshot({ path: join(SHOTS, 'offline.png') });
  });

  it('keeps a message sent offline as waiting, across a reload, and sends it once when the network returns', async () => {
    await send(alice, 'Written offline');
    const waiting = alice.locator('[data-pending="queued"]').filter({ hasText: 'Written offline' });
    await waiting.getByText('Waiting for the connection').waitFor();
    // The outbox is written at once: a reload right away keeps it.
    await alice.reload();
    await waiting.waitFor();
    await alice.getByTestId('message-content').filter({ hasText: 'Read before 3' }).waitFor();

    await openAs(bob, server.base, bobAccount, `/c/${converseId}`);
    proxy.restore();
    await aliceContext.setOffline(false);
    await alice
      .getByTestId('connection')
      .and(alice.locator('[data-state="online"]'))
      .waitFor({ state: 'attached', timeout: 30_000 });
    await alice.locator('[data-pending]').waitFor({ state: 'detached' });
    await bob.getByTestId('message-content').filter({ hasText: 'Written offline' }).waitFor();

    const count = (texts: string[]) => texts.filter((t) => t === 'Written offline').length;
    assert.equal(count(await messageTexts(alice)), 1);
    assert.equal(count(await messageTexts(bob)), 1);
    const history = await typedApi(server.base, bobAccount.token).call('chat.history', { converseId, limit: 50 });
    assert.equal(count(history.map((m) => m.content)), 1);
  });

  it('drops a waiting message the user cancels', async () => {
    await waitUntilKept(alice, 'Written offline');
    await aliceContext.setOffline(true);
    proxy.cut();
    await alice.getByTestId('connection').and(alice.locator('[data-state="offline"]')).waitFor();
    await send(alice, 'Never mind');
    const waiting = alice.locator('[data-pending="queued"]').filter({ hasText: 'Never mind' });
    await waiting.getByRole('button', { name: 'Cancel' }).click();
    await waiting.waitFor({ state: 'detached' });
    await alice.reload();
    await alice.getByTestId('message-content').filter({ hasText: 'Written offline' }).waitFor();
    assert.equal(await alice.locator('[data-pending]').count(), 0);
    proxy.restore();
    await aliceContext.setOffline(false);
    await alice
      .getByTestId('connection')
      .and(alice.locator('[data-state="online"]'))
      .waitFor({ state: 'attached', timeout: 30_000 });
    const history = await typedApi(server.base, bobAccount.token).call('chat.history', { converseId, limit: 50 });
    assert.ok(!history.some((m) => m.content === 'Never mind'));
  });
});
