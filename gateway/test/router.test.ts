import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createLogger, ImError } from '@im/sdk';
import { createHttpMetrics } from '../src/http/metrics.ts';
import { sendJson } from '../src/http/respond.ts';
import { Router } from '../src/http/router.ts';

describe('gateway router', () => {
  let server: Server;
  let base: string;
  const metrics = new Registry();

  before(async () => {
    const router = new Router(
      createHttpMetrics(metrics),
      createLogger({ logLevel: 'fatal', logFormat: 'json', nodeEnv: 'test' }),
    );
    router.on('GET', '/ok/:id', (_req, res, params) => sendJson(res, 200, { id: params.id }));
    router.on('GET', '/now', (_req, res) => sendJson(res, 200, { now: true }));
    router.on('GET', '/later', async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      sendJson(res, 201, { later: true });
    });
    router.on('GET', '/forbidden', () => {
      throw new ImError('IM_ERR_FORBIDDEN');
    });
    router.on('GET', '/crash', async () => {
      throw new Error('secret internals: mongodb://admin:pw@db');
    });
    router.on('POST', '/ok/:id', (_req, res) => sendJson(res, 201, {}));
    router.on('GET', '/files/*', (_req, res) => sendJson(res, 200, {}));
    server = createServer(router.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a method a path does not serve with 405 and the methods it does serve', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'QUERY']) {
      const res = await fetch(`${base}/ok/42`, { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'GET, POST');
      if (method !== 'HEAD')
        assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'IM_ERR_METHOD_NOT_ALLOWED');
    }
    // fetch may not send TRACE; a plain request does.
    const trace = await new Promise<{ status?: number; allow?: string }>((resolve, reject) => {
      request(`${base}/ok/42`, { method: 'TRACE' }, (res) => {
        res.resume();
        resolve({ status: res.statusCode, allow: res.headers.allow });
      })
        .on('error', reject)
        .end();
    });
    assert.deepEqual(trace, { status: 405, allow: 'GET, POST' });
    // Unknown paths stay 404, also under a wildcard and for other methods.
    assert.equal((await fetch(`${base}/nope`, { method: 'PUT' })).status, 404);
    assert.equal((await fetch(`${base}/files/a`, { method: 'POST' })).status, 404);
  });

  it('routes with parameters', async () => {
    const res = await fetch(`${base}/ok/42`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { id: '42' });
  });

  it('counts and times handlers that answer at once and handlers that answer later', async () => {
    for (let i = 0; i < 2; i += 1) assert.equal((await fetch(`${base}/now`)).status, 200);
    const later = await fetch(`${base}/later`);
    assert.equal(later.status, 201);
    assert.deepEqual(await later.json(), { later: true });
    const text = await metrics.metrics();
    assert.match(text, /^im_http_requests_total\{method="GET",route="\/now",status="200"\} 2$/m);
    assert.match(text, /^im_http_request_duration_seconds_count\{method="GET",route="\/now"\} 2$/m);
    assert.match(text, /^im_http_requests_total\{method="GET",route="\/later",status="201"\} 1$/m);
    assert.match(text, /^im_http_request_duration_seconds_count\{method="GET",route="\/later"\} 1$/m);
    // The handler waited 5 ms: not in the first bucket (1 ms), well inside the last.
    assert.match(text, /^im_http_request_duration_seconds_bucket\{le="0.001",method="GET",route="\/later"\} 0$/m);
    assert.match(text, /^im_http_request_duration_seconds_bucket\{le="2.5",method="GET",route="\/later"\} 1$/m);
  });

  it('maps catalog errors to their status and body', async () => {
    const res = await fetch(`${base}/forbidden`);
    assert.equal(res.status, 403);
    assert.deepEqual(await res.json(), { error: { code: 'IM_ERR_FORBIDDEN', message: 'Not allowed' } });
  });

  it('turns an unexpected failure into a 500 that reveals nothing', async () => {
    const res = await fetch(`${base}/crash`);
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.ok(!text.includes('mongodb'), text);
    assert.deepEqual(JSON.parse(text), { error: { code: 'IM_ERR_INTERNAL', message: 'Internal error' } });
  });

  it('answers an unknown route with a catalog 404 and counts requests by route', async () => {
    const res = await fetch(`${base}/missing`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'IM_ERR_ROUTE_NOT_FOUND');
    const text = await metrics.metrics();
    assert.match(text, /im_http_requests_total\{method="GET",route="\/crash",status="500"\} 1/);
    assert.match(text, /im_http_requests_total\{method="GET",route="\/forbidden",status="403"\} 1/);
  });
});
