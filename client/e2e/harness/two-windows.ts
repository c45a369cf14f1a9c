// Two people in two browser contexts of headless Chromium against the single
// instance serving the built client, with a proxy that can cut the network
// (its base is for whoever's connection a test cuts).
import type { ServerProcess } from '@im/dev-servers';
import { openTestEnv, type TestEnv } from '@im/testkit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startCuttableProxy, type CuttableProxy } from './cuttable-proxy.ts';
import { STEP_DEADLINE_MS } from './deadline.ts';
import { startWebApp } from './server.ts';

export interface TwoWindows {
  env: TestEnv;
  server: ServerProcess;
  proxy: CuttableProxy;
  browser: Browser;
  aliceContext: BrowserContext;
  bobContext: BrowserContext;
  alice: Page;
  bob: Page;
  /** Closes the browser, the proxy, the server and the test's servers (what was opened). */
  close(): Promise<void>;
}

export async function openTwoWindows(testUrl: string): Promise<TwoWindows> {
  // What was opened so far, last first: closed again when a later step fails.
  const opened: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closeOne of opened.splice(0).reverse()) await closeOne();
  };
  try {
    const env = await openTestEnv(testUrl);
    opened.push(() => env.close());
    const server = await startWebApp(env);
    opened.push(() => server.stop());
    const proxy = await startCuttableProxy(Number(new URL(server.base).port));
    opened.push(() => proxy.close());
    const browser = await launchBrowser();
    opened.push(() => browser.close());
    const aliceContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const bobContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    for (const context of [aliceContext, bobContext]) context.setDefaultTimeout(STEP_DEADLINE_MS);
    const alice = await aliceContext.newPage();
    const bob = await bobContext.newPage();
    return { env, server, proxy, browser, aliceContext, bobContext, alice, bob, close };
  } catch (err) {
    await close();
    throw err;
  }
}
