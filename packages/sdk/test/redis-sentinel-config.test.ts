import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, describeConfig, loadConfig, parseConfig, redisSentinelSettings } from '../src/index.ts';

const URL_ = 'redis://:masterpass@mymaster/2';

describe('config: Redis through Sentinel', () => {
  it('reads the sentinels, the group and the password; REDIS_URL stays the one Redis without them', () => {
    const config = parseConfig({
      REDIS_URL: URL_,
      REDIS_SENTINELS: ' 10.0.0.1:26380, sentinel-b ,[::1]:26381,',
      REDIS_SENTINEL_NAME: 'chat-redis',
      REDIS_SENTINEL_PASSWORD: 'sentinelpass',
    });
    assert.deepEqual(redisSentinelSettings(config), {
      sentinels: [
        { host: '10.0.0.1', port: 26380 },
        { host: 'sentinel-b', port: 26379 },
        { host: '::1', port: 26381 },
      ],
      name: 'chat-redis',
      password: 'sentinelpass',
    });
    const plain = parseConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });
    assert.equal(redisSentinelSettings(plain), undefined);
    assert.equal(plain.redisSentinelName, 'mymaster');
    assert.equal(redisSentinelSettings(parseConfig({ REDIS_URL: URL_, REDIS_SENTINELS: '' })), undefined);
  });

  it('prints the list as written and never the sentinel password', () => {
    const printed = describeConfig(
      loadConfig({
        NODE_ENV: 'test',
        REDIS_URL: URL_,
        REDIS_SENTINELS: '10.0.0.1:26380,[::1]:26381',
        REDIS_SENTINEL_PASSWORD: 'sentinelpass',
      }),
    ).join('\n');
    assert.match(printed, /^REDIS_SENTINELS=10\.0\.0\.1:26380,\[::1\]:26381$/m);
    assert.match(printed, /^REDIS_SENTINEL_NAME=mymaster$/m);
    assert.ok(!printed.includes('sentinelpass'));
    assert.ok(!printed.includes('masterpass'));
  });

  const bad: Array<[Record<string, string>, string, RegExp]> = [
    [{ REDIS_SENTINELS: 'a:26379,,b:26379' }, 'REDIS_SENTINELS', /host:port: entry 2 is empty/],
    [{ REDIS_SENTINELS: 'a:26379,b:sixty' }, 'REDIS_SENTINELS', /'b:sixty' is not host:port/],
    [{ REDIS_SENTINELS: 'a:70000' }, 'REDIS_SENTINELS', /'a:70000' has a port outside 1\.\.65535/],
    [{ REDIS_SENTINELS: 'a:' }, 'REDIS_SENTINELS', /'a:' has an empty port/],
    [{ REDIS_SENTINELS: 'a_b:1' }, 'REDIS_SENTINELS', /'a_b:1' does not start with a host name/],
    [{ REDIS_SENTINELS: 'a:1,A:1' }, 'REDIS_SENTINELS', /'a:1' is listed twice/],
    [{ REDIS_SENTINELS: 'redis://a:1' }, 'REDIS_SENTINELS', /not host:port/],
    [{ REDIS_SENTINEL_NAME: 'my master' }, 'REDIS_SENTINEL_NAME', /letters, digits/],
  ];
  for (const [env, variable, detail] of bad) {
    it(`rejects ${JSON.stringify(env)} naming ${variable}`, () => {
      assert.throws(
        () => parseConfig({ REDIS_URL: URL_, ...env }),
        (err: unknown) => err instanceof ConfigError && err.variable === variable && detail.test(err.message),
      );
    });
  }

  it('asks for REDIS_URL when only the sentinels are given, and says what it is for', () => {
    assert.throws(
      () => parseConfig({ REDIS_SENTINELS: '127.0.0.1:26379' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.variable === 'REDIS_URL' &&
        /required when REDIS_SENTINELS is set: .*password, database and TLS.*redis:\/\/:secret@mymaster\/0/.test(
          err.message,
        ),
    );
  });
});
