import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Group, ImportJob, ImportSummary } from '@im/protocol';
import { apiWithSockets, eventually } from '../api/harness.ts';
import { connectClient, record, until } from '../realtime/client.ts';

const CLI = fileURLToPath(new URL('../../src/data/import-cli.ts', import.meta.url));
const EXPORT = fileURLToPath(
  new URL('../../../services/import/test/fixtures/mattermost/export.jsonl', import.meta.url),
);

/** `npm run import` as an operator runs it: its own process, the same settings as the running platform. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

describe('npm run import, and imports from the app', () => {
  const { api, sockets } = apiWithSockets(import.meta.url, { ADMIN_USERNAMES: 'importadmin' });

  async function admin(): Promise<{ token: string; id: string }> {
    const res = await api.request<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
      body: { username: 'importadmin', password: 'correct horse battery' },
    });
    if (res.status === 201) return { token: res.body.token, id: res.body.user.id };
    const login = await api.request<{ token: string; user: { id: string } }>('POST', '/api/auth/login', {
      body: { username: 'importadmin', password: 'correct horse battery' },
    });
    return { token: login.body.token, id: login.body.user.id };
  }

  it('imports into the running platform from another process, which shows the groups at once; a second run adds nothing', async () => {
    const owner = await api.user('cliown');
    const socket = await connectClient(api.base, owner.token);
    sockets.push(socket);
    const joined = record(socket, 'member:joined');
    const env = { MONGO_URL: api.env.mongoUrl };

    const first = await runCli(['mattermost', EXPORT, '--owner', owner.username], env);
    assert.equal(first.code, 0, first.stderr);
    const summary = JSON.parse(lastLine(first.stdout)) as ImportSummary;
    assert.equal(summary.groups, 2);
    assert.ok(summary.messages > 5, JSON.stringify(summary));
    assert.match(first.stderr, /messages/);
    assert.match(first.stderr, /skipped \d+: /);
    await until(
      'the owner is told of both groups',
      () => joined.filter((j) => j.userId === owner.id).length >= 2,
      20_000,
    );
    const groups = (await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body;
    assert.deepEqual(groups.map((g) => g.name).sort(), ['Acme Inc', 'Hobby club']);

    const second = await runCli(['mattermost', EXPORT, '--owner', owner.username], env);
    assert.equal(second.code, 0, second.stderr);
    const again = JSON.parse(lastLine(second.stdout)) as ImportSummary;
    assert.deepEqual(
      { ...again, skipped: 0 },
      { groups: 0, panels: 0, users: 0, messages: 0, replies: 0, reactions: 0, files: 0, skipped: 0 },
    );
    assert.ok(again.skipped >= summary.messages);

    // Both runs are on the Import page's list.
    const me = await admin();
    const jobs = (await api.request<ImportJob[]>('GET', '/api/admin/imports', { token: me.token })).body;
    assert.ok(jobs.filter((j) => j.fileName === 'export.jsonl' && j.status === 'done').length >= 2);
  });

  it('refuses what it cannot do with a clear message', async () => {
    const usage = await runCli(['slack'], { MONGO_URL: api.env.mongoUrl });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage: npm run import -- slack\|mattermost\|discord\|im <path> --owner <username>/);
    const nobody = await runCli(['mattermost', EXPORT, '--owner', 'nobody-here'], { MONGO_URL: api.env.mongoUrl });
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /no account is named nobody-here/);
  });

  it('imports an upload from the Import page: server admins only, checked before it is stored, progress to the summary', async () => {
    const me = await admin();
    const someone = await api.user('notadmin');
    // The same export under other team names: another origin, so not the groups the command line made.
    const body = Buffer.from(
      (await readFile(EXPORT, 'utf8')).replaceAll('"acme"', '"acme2"').replaceAll('"hobby"', '"hobby2"'),
    );
    const upload = (query: string, token: string) =>
      fetch(`${api.base}/api/admin/imports${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body,
      });
    assert.equal((await upload('?kind=mattermost', someone.token)).status, 403);
    const badKind = await upload('?kind=irc', me.token);
    assert.equal(badKind.status, 400);
    assert.match(JSON.stringify(await badKind.json()), /kind/);
    const badOwner = await upload('?kind=mattermost&owner=no-such-person', me.token);
    assert.equal(badOwner.status, 400);
    assert.match(JSON.stringify(await badOwner.json()), /owner/);

    const started = await upload(`?kind=mattermost&owner=${someone.username}`, me.token);
    assert.equal(started.status, 202);
    const job = (await started.json()) as ImportJob;
    assert.equal(job.kind, 'mattermost');
    const done = await eventually(
      async () => (await api.request<ImportJob>('GET', `/api/admin/imports/${job.id}`, { token: me.token })).body,
      (j) => j.status === 'done' || j.status === 'failed',
      60_000,
    );
    assert.equal(done.status, 'done', JSON.stringify(done.error));
    assert.equal(done.summary?.groups, 2);
    assert.ok(done.skippedReasons && Object.keys(done.skippedReasons).length > 0);
    assert.equal(done.groupIds.length, 2);
    const theirs = (await api.request<Group[]>('GET', '/api/groups', { token: someone.token })).body;
    assert.equal(theirs.filter((g) => g.ownerId === someone.id).length, 2);
    assert.equal((await api.request('GET', `/api/admin/imports/${job.id}`, { token: someone.token })).status, 403);
    assert.equal(
      (await api.request('GET', '/api/admin/imports/0123456789abcdef01234567', { token: me.token })).status,
      404,
    );
  });
});
