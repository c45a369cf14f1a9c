import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import type { ServiceBroker } from 'moleculer';
import {
  createBroker,
  createLogger,
  parseConfig,
  RateLimits,
  Readiness,
  type AppConfig,
  type AppContext,
} from '@im/sdk';
import { createGatewayService } from '../src/gateway.service.ts';
import { WEB_CLIENT_CSP } from '../src/routes/web-client.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A gateway alone on a broker (no other service), serving WEB_CLIENT_DIR=dir on a free port. */
async function startGateway(dir: string): Promise<{ broker: ServiceBroker; base: string }> {
  const parsed = parseConfig({
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    SERVICES: 'gateway',
    WEB_CLIENT_DIR: dir,
  });
  const config: AppConfig = { ...parsed, secret: 's'.repeat(40), secretSource: 'test-random' };
  const logger = createLogger(config);
  const app: AppContext = {
    config,
    logger,
    readiness: new Readiness(),
    metrics: new Registry(),
    rateLimits: new RateLimits({ enabled: false }),
  };
  const broker = createBroker({ config, logger });
  broker.createService(createGatewayService(app));
  await broker.start();
  const gateway = broker.getLocalService('gateway') as unknown as { address(): AddressInfo };
  return { broker, base: `http://127.0.0.1:${gateway.address().port}` };
}

/** A request whose path goes out exactly as written (fetch would normalize `..` away). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const errorCode = (answer: Answer): string =>
  (JSON.parse(answer.body.toString()) as { error: { code: string } }).error.code;

describe('gateway: the web client', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'im-web-client-'));
  const built = join(scratch, 'dist');
  const INDEX = '<!doctype html><title>app</title><div id="root"></div>';
  const APP_JS = 'console.log("app");\n';
  const ICON = randomBytes(3000);
  const BIG = randomBytes(3 * 1024 * 1024 + 17);
  let gateway: { broker: ServiceBroker; base: string };
  let unbuilt: { broker: ServiceBroker; base: string };
  let apiOnly: { broker: ServiceBroker; base: string };

  before(async () => {
    // Beside the client directory, where no request may reach.
    writeFileSync(join(scratch, 'package.json'), '{"name":"outside"}');
    writeFileSync(join(scratch, 'secret.txt'), 'outside');
    mkdirSync(join(built, 'assets'), { recursive: true });
    mkdirSync(join(built, 'icons'));
    writeFileSync(join(built, 'index.html'), INDEX);
    writeFileSync(join(built, 'sw.js'), 'self.addEventListener("push", () => {});\n');
    writeFileSync(join(built, 'manifest.webmanifest'), '{"name":"im"}');
    writeFileSync(join(built, 'assets', 'index-4f3a9c.js'), APP_JS);
    writeFileSync(join(built, 'assets', 'index-77b0e1.css'), 'body{margin:0}');
    writeFileSync(join(built, 'assets', 'video-big.bin'), BIG);
    writeFileSync(join(built, 'icons', 'icon-192.png'), ICON);
    writeFileSync(join(built, '.build-stamp'), 'abc');
    writeFileSync(join(built, 'icons', '.hidden'), 'x');
    mkdirSync(join(scratch, 'empty'));
    gateway = await startGateway(built);
    unbuilt = await startGateway(join(scratch, 'empty'));
    apiOnly = await startGateway('');
  });
  after(async () => {
    await Promise.all([gateway?.broker.stop(), unbuilt?.broker.stop(), apiOnly?.broker.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('serves index.html at / with no-cache and the security headers', async () => {
    const res = await raw(gateway.base, 'GET', '/');
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), INDEX);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['content-security-policy'], WEB_CLIENT_CSP);
    assert.match(WEB_CLIENT_CSP, /^default-src 'self'; .*frame-ancestors 'none'$/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(INDEX)));
    assert.ok(res.headers.etag);
  });

  it('serves each file with its content type and cache policy', async () => {
    const cases: Array<[string, string, string]> = [
      ['/assets/index-4f3a9c.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['/assets/index-77b0e1.css', 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['/sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
      ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8', 'no-cache'],
      ['/icons/icon-192.png', 'image/png', 'no-cache'],
      ['/index.html', 'text/html; charset=utf-8', 'no-cache'],
    ];
    for (const [path, type, cache] of cases) {
      const res = await raw(gateway.base, 'GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], type, path);
      assert.equal(res.headers['cache-control'], cache, path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
    }
    assert.equal((await raw(gateway.base, 'GET', '/assets/index-4f3a9c.js')).body.toString(), APP_JS);
    assert.deepEqual((await raw(gateway.base, 'GET', '/icons/icon-192.png')).body, ICON);
    // Only the HTML carries the page's policy (a worker script would be bound by its own).
    assert.equal((await raw(gateway.base, 'GET', '/sw.js')).headers['content-security-policy'], undefined);
  });

  it('streams a large file whole, and answers a query string as the bare path', async () => {
    const res = await fetch(`${gateway.base}/assets/video-big.bin?v=2`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.equal(res.headers.get('content-length'), String(BIG.length));
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(BIG));
  });

  it('answers 304 to a matching If-None-Match, for files and for the app', async () => {
    for (const path of ['/assets/index-4f3a9c.js', '/sw.js', '/', '/g/abc/p/def']) {
      const first = await raw(gateway.base, 'GET', path);
      const etag = first.headers.etag as string;
      assert.ok(etag, path);
      const again = await raw(gateway.base, 'GET', path, { 'if-none-match': etag });
      assert.equal(again.status, 304, path);
      assert.equal(again.body.length, 0, path);
      assert.equal(again.headers.etag, etag, path);
      assert.equal(again.headers['cache-control'], first.headers['cache-control'], path);
      const listed = await raw(gateway.base, 'GET', path, { 'if-none-match': `"other", ${etag}` });
      assert.equal(listed.status, 304, path);
      const stale = await raw(gateway.base, 'GET', path, { 'if-none-match': '"other"' });
      assert.equal(stale.status, 200, path);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const path of ['/', '/assets/index-4f3a9c.js', '/g/abc']) {
      const get = await raw(gateway.base, 'GET', path);
      const head = await raw(gateway.base, 'HEAD', path);
      assert.equal(head.status, 200, path);
      assert.equal(head.body.length, 0, path);
      for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'content-security-policy']) {
        assert.equal(head.headers[name], get.headers[name], `${path} ${name}`);
      }
    }
  });

  it('gives client routes (paths without an extension that name no file) index.html', async () => {
    for (const path of ['/g/abc/p/def', '/login', '/g/abc/p/def/', '/settings?tab=profile', '/icons']) {
      const res = await raw(gateway.base, 'GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.body.toString(), INDEX, path);
      assert.equal(res.headers['cache-control'], 'no-cache', path);
      assert.equal(res.headers['content-security-policy'], WEB_CLIENT_CSP, path);
    }
  });

  it('answers a missing file with an extension, or anything missing under /assets, with a JSON 404', async () => {
    for (const path of ['/favicon.ico', '/assets/index-000000.js', '/assets/gone', '/assets', '/g/abc/missing.png']) {
      const res = await raw(gateway.base, 'GET', path);
      assert.equal(res.status, 404, path);
      assert.match(String(res.headers['content-type']), /^application\/json/, path);
      assert.equal(errorCode(res), 'IM_ERR_NOT_FOUND', path);
    }
  });

  it('refuses paths that would leave the directory, dotfiles and encoded separators', async () => {
    const attempts = [
      '/../package.json',
      '/../secret.txt',
      '/assets/../../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E/secret.txt',
      '/%2e%2e%2fpackage.json',
      '/..%2Fpackage.json',
      '/assets/..%2F..%2Fpackage.json',
      '/assets%2F..%2F..%2Fsecret.txt',
      '/..%5Cpackage.json',
      '/%2e%2e',
      '/..',
      '/.build-stamp',
      '/icons/.hidden',
      '/%2ebuild-stamp',
      '/index.html%00.png',
      '/%E0%A4%A',
    ];
    for (const path of attempts) {
      const res = await raw(gateway.base, 'GET', path);
      assert.equal(res.status, 404, path);
      const text = res.body.toString();
      assert.ok(!text.includes('outside') && !text.includes('abc'), `${path}: ${text}`);
      assert.match(String(res.headers['content-type']), /^application\/json/, path);
    }
  });

  it("leaves the server's own paths to the API: unknown ones stay its JSON 404, known ones answer", async () => {
    for (const path of [
      '/api/nope',
      '/api',
      '/api/',
      '/api/nope.js',
      '/socket.io',
      '/metrics/x',
      '/health/x',
      '/%61pi/nope',
    ]) {
      const res = await raw(gateway.base, 'GET', path);
      assert.equal(res.status, 404, path);
      assert.equal(errorCode(res), 'IM_ERR_ROUTE_NOT_FOUND', path);
    }
    const head = await raw(gateway.base, 'HEAD', '/api/nope');
    assert.equal(head.status, 404);
    const health = await raw(gateway.base, 'GET', '/health');
    assert.deepEqual(JSON.parse(health.body.toString()), { status: 'ok' });
    const openapi = await raw(gateway.base, 'GET', '/api/openapi.json');
    assert.equal(openapi.status, 200);
    assert.equal((JSON.parse(openapi.body.toString()) as { openapi: string }).openapi.slice(0, 2), '3.');
    // Other methods are not the client's.
    const post = await raw(gateway.base, 'POST', '/');
    assert.equal(post.status, 404);
    assert.equal(errorCode(post), 'IM_ERR_ROUTE_NOT_FOUND');
  });

  it('answers 503 with a page saying how to build the client when the directory has no index.html', async () => {
    for (const path of ['/', '/g/abc/p/def']) {
      const res = await raw(unbuilt.base, 'GET', path);
      assert.equal(res.status, 503, path);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-store');
      const page = res.body.toString();
      assert.match(page, /not built/);
      assert.ok(page.includes('npm run build -w @im/client'));
      assert.ok(page.includes('bash scripts/run.sh'));
      assert.ok(!page.includes(scratch), 'the page does not reveal where the server looks');
    }
    const head = await raw(unbuilt.base, 'HEAD', '/');
    assert.equal(head.status, 503);
    assert.equal(head.body.length, 0);
    assert.equal((await raw(unbuilt.base, 'GET', '/assets/index-4f3a9c.js')).status, 404);
    assert.equal((await raw(unbuilt.base, 'GET', '/health')).status, 200);
  });

  it('serves no client when WEB_CLIENT_DIR is empty', async () => {
    const res = await raw(apiOnly.base, 'GET', '/');
    assert.equal(res.status, 404);
    assert.equal(errorCode(res), 'IM_ERR_ROUTE_NOT_FOUND');
    assert.equal((await raw(apiOnly.base, 'GET', '/health')).status, 200);
  });
});
