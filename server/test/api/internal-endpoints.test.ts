import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startApi, type ApiHarness } from './harness.ts';

const TOKEN = 'operator-token-0123456789';

describe('internal endpoints with METRICS_TOKEN', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url, { METRICS_TOKEN: TOKEN });
  });
  after(() => api.close());

  it('serves /metrics only with the token', async () => {
    const without = await fetch(`${api.base}/metrics`);
    assert.equal(without.status, 403);
    assert.equal(((await without.json()) as { error: { code: string } }).error.code, 'IM_ERR_FORBIDDEN');
    const wrong = await fetch(`${api.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    assert.equal(wrong.status, 403);
    const right = await fetch(`${api.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(right.status, 200);
    assert.match(await right.text(), /im_gateway_sockets/);
  });

  it('answers /ready to anyone, but names the dependencies only to operators', async () => {
    const plain = await fetch(`${api.base}/ready`);
    assert.equal(plain.status, 200);
    assert.deepEqual(await plain.json(), { status: 'ready' });
    const detailed = (await (
      await fetch(`${api.base}/ready`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { checks: Record<string, string> };
    assert.equal(detailed.checks.mongo, 'ok');
  });
});

describe('internal endpoints without a token', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(() => api.close());

  it('serves a direct loopback connection, not one that came through a proxy', async () => {
    assert.equal((await fetch(`${api.base}/metrics`)).status, 200);
    const proxied = await fetch(`${api.base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(proxied.status, 403);
    const ready = (await (
      await fetch(`${api.base}/ready`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
    ).json()) as object;
    assert.deepEqual(ready, { status: 'ready' });
  });

  it('the shipped nginx does not pass them on, and tells the gateways one hop to trust', () => {
    const conf = readFileSync(new URL('../../../gateway/deploy/nginx.conf', import.meta.url), 'utf8');
    assert.match(conf, /location = \/metrics \{ return 404; \}/);
    assert.match(conf, /location = \/ready \{ return 404; \}/);
    assert.match(conf, /X-Forwarded-For \$proxy_add_x_forwarded_for/);
    const compose = readFileSync(new URL('../../../docker-compose.yml', import.meta.url), 'utf8');
    assert.match(compose, /TRUST_PROXY: '1'/);
  });
});
