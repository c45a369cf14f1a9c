// npm run backup / npm run restore against the single instance's embedded
// database and local file storage: backup while it runs, wipe, restore, and
// the platform serves the same groups, messages and files.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, ownerWithGroup, PASSWORD, SingleInstance } from './single-instance.ts';

const SECRET = 'b'.repeat(40);

describe('backup and restore of the single instance', () => {
  let dataDir: string;
  let archive: string;
  // The tools and the server read the same settings; MONGO_URL stays unset (the embedded database).
  const instance = new SingleInstance(() => ({ DATA_DIR: dataDir, SECRET }));
  const start = () => instance.start();
  const stop = () => instance.stop();
  const tool = (...args: string[]) => instance.dataTool(...args);

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'im-backup-data-'));
    archive = join(mkdtempSync(join(tmpdir(), 'im-backup-')), 'platform.tar.gz');
  });
  after(() => {
    instance.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('backs up while serving; after a wipe, restore brings back the same groups, messages and files', async () => {
    let base = await start();
    const alice = await ownerWithGroup(base, 'alice', 'Backed up');
    const { converseId } = alice;
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'data.bin');
    const upload = await fetch(`${base}/api/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    assert.equal(upload.status, 201);
    const fileId = ((await upload.json()) as { id: string }).id;
    for (let i = 1; i <= 30; i += 1) {
      const sent = await call(base, 'POST', `/api/converses/${converseId}/messages`, alice.token, {
        content: `message ${i}`,
        ...(i === 30 ? { attachments: [fileId] } : {}),
      });
      assert.equal(sent.status, 201);
    }
    const before = await call<Array<{ id: string; seq: number; content: string }>>(
      base,
      'GET',
      `/api/converses/${converseId}/messages?limit=100`,
      alice.token,
    );

    const backup = await tool('backup', archive);
    assert.match(backup.stdout, /messages: 30 documents/);
    assert.match(backup.stdout, /files: 1 objects/);

    // Wipe: the database file and the stored files go.
    await stop();
    rmSync(join(dataDir, 'im.mv.db'));
    rmSync(join(dataDir, 'files'), { recursive: true, force: true });

    const restored = await tool('restore', archive);
    assert.match(restored.stdout, /messages: 30 documents/);

    base = await start();
    const login = await call<{ token: string }>(base, 'POST', '/api/auth/login', undefined, {
      username: 'alice',
      password: PASSWORD,
    });
    assert.equal(login.status, 200);
    const groups = await call<Array<{ id: string; name: string }>>(base, 'GET', '/api/groups', login.body.token);
    assert.deepEqual(
      groups.body.map((g) => [g.id, g.name]),
      [[alice.groupId, 'Backed up']],
    );
    const after = await call<Array<{ id: string; seq: number; content: string }>>(
      base,
      'GET',
      `/api/converses/${converseId}/messages?limit=100`,
      login.body.token,
    );
    assert.deepEqual(after.body, before.body);
    const download = await fetch(`${base}/api/files/${fileId}`, {
      headers: { authorization: `Bearer ${login.body.token}` },
    });
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);
    // Sends continue the sequence.
    const next = await call<{ seq: number }>(base, 'POST', `/api/converses/${converseId}/messages`, login.body.token, {
      content: 'after the restore',
    });
    assert.equal(next.body.seq, 31);
  });

  it('refuses to restore into a database that holds data, and a cut-off archive, writing nothing', async () => {
    // The server from the test above still runs on the restored data.
    await assert.rejects(tool('restore', archive), (err: { stderr: string }) => {
      assert.match(err.stderr, /the database is not empty/);
      return true;
    });
    await stop();
    rmSync(join(dataDir, 'im.mv.db'));
    const cut = `${archive}.cut`;
    writeFileSync(cut, readFileSync(archive));
    truncateSync(cut, Math.floor(statSync(cut).size / 2));
    await assert.rejects(tool('restore', cut), (err: { stderr: string }) => {
      assert.match(err.stderr, /restore failed/);
      return true;
    });
    // Nothing was loaded: the database the tool opened is empty.
    const base = await start();
    const login = await call(base, 'POST', '/api/auth/login', undefined, { username: 'alice', password: PASSWORD });
    assert.equal(login.status, 401);
    assert.ok(existsSync(join(dataDir, 'im.mv.db')));
  });
});
