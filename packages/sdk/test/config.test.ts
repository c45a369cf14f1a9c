import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import {
  ConfigError,
  configTableMarkdown,
  DEFAULT_WEB_CLIENT_DIR,
  describeConfig,
  loadConfig,
  parseConfig,
  SERVICE_NAMES,
  withConfigTable,
} from '../src/index.ts';

const SECRET = 'x'.repeat(40);

describe('config', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig({});
    assert.equal(config.nodeEnv, 'development');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.equal(config.transporter, undefined);
    assert.deepEqual(config.services, [...SERVICE_NAMES]);
  });

  it('parses typed values', () => {
    const config = parseConfig({ PORT: '3100', SERVICES: 'user, chat,user', TRANSPORTER: 'nats://127.0.0.1:4222' });
    assert.equal(config.port, 3100);
    assert.deepEqual(config.services, ['user', 'chat']);
    assert.equal(config.transporter, 'nats://127.0.0.1:4222');
  });

  it('takes the servers of a NATS cluster as a comma-separated TRANSPORTER', () => {
    const config = parseConfig({ TRANSPORTER: 'nats://10.0.0.1:4222, nats://10.0.0.2:4222 ,nats://n3:4222' });
    assert.equal(config.transporter, 'nats://10.0.0.1:4222,nats://10.0.0.2:4222,nats://n3:4222');
  });

  const bad: Array<[Record<string, string>, string, RegExp]> = [
    [{ TRANSPORTER: 'amqp://localhost' }, 'TRANSPORTER', /must start with nats:\/\//],
    [{ TRANSPORTER: 'nats://a:4222,amqp://b' }, 'TRANSPORTER', /comma-separated list, each starting with nats:\/\//],
    [{ TRANSPORTER: 'nats://a:4222,' }, 'TRANSPORTER', /comma-separated list/],
    [{ PORT: 'eighty' }, 'PORT', /eighty/],
    [{ PORT: '70000' }, 'PORT', /70000/],
    [{ SERVICES: 'user,billing' }, 'SERVICES', /billing|Invalid/],
    [{ MONGO_URL: 'http://db' }, 'MONGO_URL', /mongodb:\/\//],
    [{ NODE_ENV: 'prod' }, 'NODE_ENV', /prod/],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /loud/],
    [{ OIDC_ISSUER: 'ftp://idp.example' }, 'OIDC_ISSUER', /https:\/\/ or http:\/\//],
    [{ OIDC_ISSUER: 'https://idp.example' }, 'OIDC_CLIENT_ID', /OIDC_ISSUER is set: .*together/],
    [{ OIDC_CLIENT_ID: 'im', OIDC_CLIENT_SECRET: 'x'.repeat(20) }, 'OIDC_ISSUER', /are set/],
    [{ OIDC_CREATE_ACCOUNTS: 'yes' }, 'OIDC_CREATE_ACCOUNTS', /yes/],
  ];
  for (const [env, variable, detail] of bad) {
    it(`rejects ${JSON.stringify(env)} naming ${variable}`, () => {
      assert.throws(
        () => parseConfig(env),
        (err: unknown) =>
          err instanceof ConfigError &&
          err.variable === variable &&
          err.message.startsWith(`configuration error: ${variable} `) &&
          detail.test(err.message),
      );
    });
  }

  it('requires SECRET in production and never prints it', () => {
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'SECRET',
    );
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production', SECRET: 'short' }),
      (err: unknown) => err instanceof ConfigError && !err.message.includes('short'),
    );
    const config = loadConfig({ NODE_ENV: 'production', SECRET });
    assert.equal(config.secret, SECRET);
    const printed = describeConfig(config).join('\n');
    assert.ok(!printed.includes(SECRET));
    assert.match(printed, /SECRET=\*{6}/);
  });

  it('allows a password hash cost below the OWASP baseline only outside production', () => {
    assert.equal(loadConfig({ NODE_ENV: 'test' }).passwordHashMemoryKib, 19_456);
    assert.equal(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_MEMORY_KIB: '1024' }).passwordHashMemoryKib, 1024);
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production', SECRET, PASSWORD_HASH_MEMORY_KIB: '1024' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'PASSWORD_HASH_MEMORY_KIB',
    );
    assert.throws(
      () => loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_MEMORY_KIB: '8' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'PASSWORD_HASH_MEMORY_KIB',
    );
  });

  it('keeps a development secret in DATA_DIR across starts, readable only by its owner', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'im-config-'));
    const first = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    const second = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    assert.equal(first.secret, second.secret);
    assert.ok(first.secret.length >= 32);
    assert.equal(readFileSync(join(dataDir, '.dev-secret'), 'utf8').trim(), first.secret);
    assert.equal(statSync(join(dataDir, '.dev-secret')).mode & 0o077, 0);
  });

  it('makes a random secret per process in test mode', () => {
    const a = loadConfig({ NODE_ENV: 'test' });
    const b = loadConfig({ NODE_ENV: 'test' });
    assert.notEqual(a.secret, b.secret);
  });

  it("serves this checkout's client/dist by default, a path resolved from the current directory, or nothing when empty", () => {
    const checkout = fileURLToPath(new URL('../../../', import.meta.url));
    assert.equal(parseConfig({}).webClientDir, join(checkout, 'client', 'dist'));
    assert.equal(parseConfig({}).webClientDir, DEFAULT_WEB_CLIENT_DIR);
    assert.equal(parseConfig({ WEB_CLIENT_DIR: 'public/web' }).webClientDir, resolve('public/web'));
    assert.equal(parseConfig({ WEB_CLIENT_DIR: '/srv/web' }).webClientDir, '/srv/web');
    assert.equal(parseConfig({ WEB_CLIENT_DIR: '' }).webClientDir, '');
    // An empty value keeps its meaning only where it is declared to: elsewhere it is the default.
    assert.equal(parseConfig({ HOST: '' }).host, '127.0.0.1');
    assert.match(configTableMarkdown(), /^\| `WEB_CLIENT_DIR` \| path \| `<checkout>\/client\/dist` \|/m);
  });

  it('masks passwords inside URLs when printing', () => {
    const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: 'redis://:hunter2hunter2@127.0.0.1:6379' });
    const printed = describeConfig(config).join('\n');
    assert.ok(!printed.includes('hunter2'));
    assert.match(printed, /REDIS_URL=redis:\/\/:\*{6}@127\.0\.0\.1:6379/);
  });

  it('the README configuration table is the one generated from the schema (npm run config:docs)', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    assert.ok(readme.includes(configTableMarkdown()), 'README table is stale: run npm run config:docs');
    assert.equal(withConfigTable(readme), readme);
  });
});
