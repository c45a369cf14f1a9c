import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { ServiceBroker } from 'moleculer';
import { openTestEnv, type TestEnv } from '@im/testkit';
import {
  createBroker,
  createLogger,
  describeConfig,
  parseConfig,
  parseRateLimitOverrides,
  RATE_LIMITS,
  RateLimits,
  clientAddressKey,
  rateLimitKey,
  rateLimitTableMarkdown,
  toHttpError,
  ConfigError,
} from '../src/index.ts';

const quiet = createLogger({ logLevel: 'warn', logFormat: 'json', nodeEnv: 'test' });
const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' });

/** A broker whose `demo` service has actions declaring limits the way services do. */
async function brokerWith(limits: RateLimits): Promise<ServiceBroker> {
  const broker = createBroker({ config, logger: quiet, rateLimits: limits });
  broker.createService({
    name: 'demo',
    actions: {
      send: { rateLimit: 'send', handler: () => 'sent' },
      login: { rateLimit: ['login-ip', 'password'], handler: () => 'in' },
      free: { handler: () => 'free' },
    } as never,
  });
  await broker.start();
  return broker;
}

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (err: unknown) => toHttpError(err).status,
  );

describe('rate-limit policy', () => {
  it('parses overrides and refuses unknown names and bad numbers, naming them', () => {
    assert.deepEqual(parseRateLimitOverrides('send=100/10, upload=5/60s'), {
      send: { points: 100, windowSeconds: 10 },
      upload: { points: 5, windowSeconds: 60 },
    });
    assert.deepEqual(parseRateLimitOverrides(''), {});
    assert.throws(() => parseRateLimitOverrides('sned=1/1'), /'sned' is not a rate limit/);
    assert.throws(() => parseRateLimitOverrides('send=0/10'), /at least 1/);
    assert.throws(() => parseRateLimitOverrides('send=ten'), /not name=points\/seconds/);
    assert.throws(
      () => parseConfig({ NODE_ENV: 'test', RATE_LIMITS: 'send=1/x' }),
      (err: unknown) => err instanceof ConfigError && err.message.includes('RATE_LIMITS'),
    );
  });

  it('prints overrides in the effective configuration as they are written', () => {
    const line = (env: Record<string, string>) =>
      describeConfig({
        ...parseConfig({ NODE_ENV: 'test', ...env }),
        secret: 's'.repeat(40),
        secretSource: 'test-random',
      }).find((l) => l.startsWith('RATE_LIMITS='));
    assert.equal(line({ RATE_LIMITS: 'send=100/10, upload=5/60' }), 'RATE_LIMITS=send=100/10,upload=5/60');
    assert.equal(line({}), 'RATE_LIMITS=(none)');
  });

  it('is the table docs/operations.md shows (npm run config:docs rewrites it)', () => {
    const doc = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    assert.ok(
      doc.includes(rateLimitTableMarkdown()),
      'docs/operations.md rate-limit table is stale: run npm run config:docs',
    );
  });

  it('covers every write and expensive read the issue names', () => {
    for (const name of [
      'register',
      'login-ip',
      'login-failures',
      'login-failures-ip',
      'password',
      'send',
      'edit',
      'delete',
      'react',
      'typing',
      'sync',
      'search',
      'dm-open',
      'upload',
      'invite',
    ])
      assert.ok(name in RATE_LIMITS, name);
  });
});

describe('rate-limit middleware (in memory)', () => {
  let broker: ServiceBroker;
  before(async () => {
    broker = await brokerWith(
      new RateLimits({
        enabled: true,
        overrides: { send: { points: 3, windowSeconds: 60 }, 'login-ip': { points: 2, windowSeconds: 60 } },
      }),
    );
  });
  after(() => broker.stop());

  it('limits an action per calling user, with a retry time, and leaves undeclared actions alone', async () => {
    const alice = { meta: { user: { id: 'alice' } } };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await status(broker.call('demo.send', {}, alice)));
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const err = await broker.call('demo.send', {}, alice).catch((e: unknown) => e);
    assert.ok((toHttpError(err).body.error.details as { retryAfterSec: number }).retryAfterSec >= 1);
    // Another user has a count of their own; an action without a limit is never limited.
    assert.equal(await status(broker.call('demo.send', {}, { meta: { user: { id: 'bob' } } })), 200);
    for (let i = 0; i < 10; i++) assert.equal(await broker.call('demo.free', {}, alice), 'free');
  });

  it('counts every limit an action names, each per its own key', async () => {
    const from = (ip: string, user: string) => broker.call('demo.login', {}, { meta: { ip, user: { id: user } } });
    assert.equal(await status(from('10.0.0.1', 'carol')), 200);
    assert.equal(await status(from('10.0.0.1', 'dave')), 200);
    // The address has used its two: a third user from it is refused, the same user elsewhere is not.
    assert.equal(await status(from('10.0.0.1', 'erin')), 429);
    assert.equal(await status(from('10.0.0.2', 'carol')), 200);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 it is', async () => {
    const sameSubscriber = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:0DB8:0001:0002:0:0:0:9'];
    assert.deepEqual(new Set(sameSubscriber.map(clientAddressKey)), new Set(['2001:db8:1:2::/64']));
    assert.notEqual(clientAddressKey('2001:db8:1:3::1'), clientAddressKey('2001:db8:1:2::1'));
    assert.equal(clientAddressKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientAddressKey('203.0.113.7'), '203.0.113.7');
    assert.notEqual(clientAddressKey('203.0.113.7'), clientAddressKey('203.0.113.8'));
    assert.equal(clientAddressKey('unknown'), 'unknown');
    // Every per-address limit counts through it: a fresh address of the same /64 has no fresh count.
    const from = (ip: string, user: string) => broker.call('demo.login', {}, { meta: { ip, user: { id: user } } });
    assert.equal(await status(from('2001:db8:7:7::1', 'frank')), 200);
    assert.equal(await status(from('2001:db8:7:7::2', 'grace')), 200);
    assert.equal(await status(from('2001:db8:7:7:1::3', 'heidi')), 429);
    assert.equal(await status(from('2001:db8:7:8::1', 'frank')), 200);
    assert.equal(
      rateLimitKey('login-failures', { params: { username: 'x' }, meta: { ip: '::ffff:10.1.1.1' } } as never),
      rateLimitKey('login-failures', { params: { username: 'x' }, meta: { ip: '10.1.1.1' } } as never),
    );
  });

  it('counts failures per (address, username), case-blind, with a wait that doubles', async () => {
    const limits = new RateLimits({ enabled: true, overrides: { 'login-failures': { points: 2, windowSeconds: 5 } } });
    const key = (ip: string, username: string) =>
      rateLimitKey('login-failures', { params: { username }, meta: { ip } } as never);
    assert.equal(key('10.0.0.1', ' Carol '), key('10.0.0.1', 'carol'));
    assert.notEqual(key('10.0.0.1', 'carol'), key('10.0.0.2', 'carol'));
    const pair = key('10.0.0.1', 'carol');
    const retryAfter = async () => {
      const err = await limits.check('login-failures', pair).catch((e: unknown) => e);
      return err ? (toHttpError(err).body.error.details as { retryAfterSec: number }).retryAfterSec : 0;
    };
    await limits.fail('login-failures', pair);
    assert.equal(await retryAfter(), 0, 'one failure is allowed');
    await limits.fail('login-failures', pair);
    const first = await retryAfter();
    assert.ok(first >= 4 && first <= 5, `first wait ${first}`);
    // Another address, or a success, is a clean slate.
    await limits.check('login-failures', key('10.0.0.2', 'carol'));
    await limits.reset('login-failures', pair);
    assert.equal(await retryAfter(), 0);
    await limits.fail('login-failures', pair);
    await limits.fail('login-failures', pair);
    const second = await retryAfter();
    assert.ok(second >= 9 && second <= 10, `second wait ${second} doubles the first`);
  });
});

describe('rate-limit middleware', () => {
  it('does nothing when RATE_LIMIT is off', async () => {
    const broker = await brokerWith(
      new RateLimits({ enabled: false, overrides: { send: { points: 1, windowSeconds: 60 } } }),
    );
    try {
      for (let i = 0; i < 5; i++)
        assert.equal(await broker.call('demo.send', {}, { meta: { user: { id: 'a' } } }), 'sent');
    } finally {
      await broker.stop();
    }
  });

  describe('with Redis', () => {
    let env: TestEnv;
    let redis: Redis;
    before(async () => {
      env = await openTestEnv(import.meta.url);
      redis = new Redis(env.redisUrl, { keyPrefix: env.redisPrefix });
    });
    after(async () => {
      redis.disconnect();
      await env.close();
    });

    it('shares the count between nodes', async () => {
      const limits = () =>
        new RateLimits({ enabled: true, overrides: { send: { points: 2, windowSeconds: 60 } }, redis });
      const [one, two] = [await brokerWith(limits()), await brokerWith(limits())];
      try {
        const erin = { meta: { user: { id: `erin-${env.id}` } } };
        assert.equal(await status(one.call('demo.send', {}, erin)), 200);
        assert.equal(await status(two.call('demo.send', {}, erin)), 200);
        assert.equal(await status(one.call('demo.send', {}, erin)), 429);
        assert.equal(await status(two.call('demo.send', {}, erin)), 429);
      } finally {
        await Promise.all([one.stop(), two.stop()]);
      }
    });
  });
});
