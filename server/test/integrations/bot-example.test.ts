import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { BotWithToken, Group, Message } from '@im/protocol';
import { eventually, expectations, startApi, type ApiHarness } from '../api/harness.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The example bot of docs/bots.md, taken from the page as it is, against a running server. */
function exampleBot(): string {
  const page = readFileSync(`${ROOT}docs/bots.md`, 'utf8');
  const section = page.slice(page.indexOf('### A working example'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('docs/bots.md has no example bot');
  return match[1]!;
}

describe('the example bot of docs/bots.md', () => {
  let api: ApiHarness;
  let bot: ChildProcess | undefined;
  // Under node_modules, so its `socket.io-client` import resolves as in a project of its own.
  const dir = `${ROOT}node_modules/.cache/bot-example-${process.pid}`;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(async () => {
    bot?.kill();
    rmSync(dir, { recursive: true, force: true });
    await api.close();
  });
  const { ok } = expectations(() => api);

  it('answers !ping with pong, and nothing else', async () => {
    const owner = await api.user('ex');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Example' }, 201);
    const converseId = group.panels[0]!.converseId;
    const made = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots`, owner, { name: 'Ping' }, 201);
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/ping-bot.mjs`, exampleBot());
    bot = spawn(process.execPath, [`${dir}/ping-bot.mjs`], {
      env: { ...process.env, IM_URL: api.base, IM_TOKEN: made.token },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      bot!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('is online') && resolve());
      bot!.once('exit', (code) => reject(new Error(`the example bot exited (${code})`)));
    });

    await ok('POST', `/api/converses/${converseId}/messages`, owner, { content: 'hello bot' }, 201);
    await ok('POST', `/api/converses/${converseId}/messages`, owner, { content: '!ping' }, 201);
    const answer = await eventually(
      async () =>
        (await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, owner)).find(
          (m) => m.authorId === made.bot.id,
        ),
      (found) => found !== undefined,
      5_000,
    );
    assert.equal(answer?.content, 'pong');
    await new Promise((r) => setTimeout(r, 300));
    const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, owner);
    assert.deepEqual(
      history.map((m) => m.content),
      ['hello bot', '!ping', 'pong'],
    );
  });
});
