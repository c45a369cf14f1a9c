// npm run migrate: from the single instance's embedded database into another
// MongoDB-compatible server (here the test kit's), checked, and the platform
// runs on the copy.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openTestEnv, type TestEnv } from '@im/testkit';
import mongoose from 'mongoose';
import { call, ownerWithGroup, PASSWORD, SingleInstance } from './single-instance.ts';

const SECRET = 'm'.repeat(40);

describe('npm run migrate: from the embedded database to a MongoDB', () => {
  let env: TestEnv;
  let dataDir: string;
  const instance = new SingleInstance(() => ({ DATA_DIR: dataDir, SECRET }));
  const migrate = (to: string) => instance.dataTool('migrate', '--to', to);
  const start = (extra: Record<string, string> = {}) => instance.start(extra);
  const stop = () => instance.stop();

  before(async () => {
    env = await openTestEnv(import.meta.url);
    dataDir = mkdtempSync(join(tmpdir(), 'im-migrate-'));
  });
  after(async () => {
    instance.kill();
    rmSync(dataDir, { recursive: true, force: true });
    await env?.close();
  });

  it('refuses while the platform runs, then copies everything with its indexes, checked, and the platform runs on it', async () => {
    let base = await start();
    const alice = await ownerWithGroup(base, 'alice', 'Moving');
    const { converseId } = alice;
    for (let i = 1; i <= 25; i += 1) {
      await call(base, 'POST', `/api/converses/${converseId}/messages`, alice.token, { content: `m${i}` });
    }
    const history = (token: string) =>
      call<Array<{ id: string; seq: number }>>(base, 'GET', `/api/converses/${converseId}/messages?limit=100`, token);
    const before = await history(alice.token);
    assert.equal(before.body.length, 25);

    await assert.rejects(migrate(env.mongoUrl), (err: { stderr: string }) => {
      assert.match(err.stderr, /the platform is running on this DATA_DIR: stop it first/);
      return true;
    });
    await stop();

    const { stdout } = await migrate(env.mongoUrl);
    assert.match(stdout, /messages: 25 documents/);
    assert.match(stdout, /counts and sequence counters checked/);
    assert.ok(stdout.includes(`MONGO_URL=${env.mongoUrl}`));

    // The services' indexes came along (the seq uniqueness among them).
    const target = await mongoose.createConnection(env.mongoUrl).asPromise();
    try {
      const indexes = await target.db!.collection('messages').listIndexes().toArray();
      assert.ok(indexes.some((i) => i.name === 'converseId_1_seq_1' && i.unique === true));
    } finally {
      await target.close();
    }

    // A second run into the now filled database is refused.
    await assert.rejects(migrate(env.mongoUrl), (err: { stderr: string }) => {
      assert.match(err.stderr, /the database is not empty/);
      return true;
    });

    base = await start({ MONGO_URL: env.mongoUrl });
    const login = await call<{ token: string }>(base, 'POST', '/api/auth/login', undefined, {
      username: 'alice',
      password: PASSWORD,
    });
    assert.equal(login.status, 200);
    assert.deepEqual((await history(login.body.token)).body, before.body);
    const next = await call<{ seq: number }>(base, 'POST', `/api/converses/${converseId}/messages`, login.body.token, {
      content: 'on the new database',
    });
    assert.equal(next.body.seq, 26);
  });
});
