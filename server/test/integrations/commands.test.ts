import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type {
  CommandAccepted,
  CommandRequestBody,
  EphemeralMessage,
  Group,
  Message,
  SlashCommand,
  SlashCommandWithSecret,
} from '@im/protocol';
import { expectations, startApi, type ApiHarness } from '../api/harness.ts';
import { connectClient, record, until, type ClientSocket } from '../realtime/client.ts';
import { startReceiver } from './receiver.ts';

/** Slash commands and the built-ins, against the single instance with command servers on loopback. */
describe('slash commands', () => {
  let api: ApiHarness;
  const closers: Array<() => unknown> = [];
  before(async () => {
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
  });
  after(async () => {
    for (const close of closers) await close();
    await api.close();
  });
  const { ok, refused } = expectations(() => api);
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    closers.push(() => r.close());
    return r;
  };
  const socketOf = async (token: string): Promise<ClientSocket> => {
    const socket = await connectClient(api.base, token);
    closers.push(() => socket.disconnect());
    return socket;
  };
  const setUp = async () => {
    const owner = await api.user('sc');
    const member = await api.user('sm');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Commands' }, 201);
    const { code } = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    await ok('POST', `/api/invites/${code}/accept`, member);
    return { owner, member, group, converseId: group.panels[0]!.converseId };
  };
  const send = (user: { token: string }, converseId: string, content: string) =>
    api.request<Message | CommandAccepted>('POST', `/api/converses/${converseId}/messages`, {
      token: user.token,
      body: { content },
    });
  const history = (converseId: string, user: { token: string }) =>
    ok<Message[]>('GET', `/api/converses/${converseId}/messages`, user);

  it('calls the command signed; an ephemeral answer reaches only the caller, and nothing is stored', async () => {
    const { owner, member, group, converseId } = await setUp();
    const rx = await receiver((req) => {
      const body = JSON.parse(req.raw) as CommandRequestBody;
      return { status: 200, body: { text: `Deploying ${body.text}` } };
    });
    const command = await ok<SlashCommandWithSecret>(
      'POST',
      `/api/groups/${group.id}/commands`,
      owner,
      { trigger: 'deploy', url: rx.url, description: 'Ship a branch' },
      201,
    );
    const mine = record(await socketOf(member.token), 'message:ephemeral');
    const theirs = record(await socketOf(owner.token), 'message:ephemeral');
    const before = (await history(converseId, owner)).length;

    const res = await send(member, converseId, '/deploy main --fast');
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(res.body, { command: 'deploy', status: 'answered' });
    const { headers, raw } = rx.received[0]!;
    assert.equal(headers['x-im-signature'], `sha256=${createHmac('sha256', command.secret).update(raw).digest('hex')}`);
    const body = JSON.parse(raw) as CommandRequestBody;
    assert.deepEqual(
      [body.command, body.text, body.userId, body.groupId, body.converseId],
      ['deploy', 'main --fast', member.id, group.id, converseId],
    );
    assert.match(body.responseUrl, /\/hooks\/respond\/[A-Za-z0-9_-]{43}$/);
    assert.equal(headers['x-im-timestamp'], String(body.timestamp));

    await until('the ephemeral answer', () => mine.length === 1);
    const answer: EphemeralMessage = mine[0]!;
    assert.deepEqual(
      [answer.content, answer.converseId, answer.authorId, answer.command],
      ['Deploying main --fast', converseId, command.botId, 'deploy'],
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(theirs.length, 0);
    assert.equal((await history(converseId, owner)).length, before);

    // Members see the commands (for the composer), without their URLs.
    const listed = await ok<SlashCommand[]>('GET', `/api/groups/${group.id}/commands`, member);
    assert.deepEqual(
      listed.map((c) => [c.trigger, c.description, c.url]),
      [['deploy', 'Ship a branch', undefined]],
    );
    assert.equal((await ok<SlashCommand[]>('GET', `/api/groups/${group.id}/commands`, owner))[0]!.url, rx.url);
  });

  it('in_channel answers are posted by the command bot; late answers come after "working" and through the response URL', async () => {
    const { owner, group, converseId } = await setUp();
    const rx = await receiver((req) => {
      const text = (JSON.parse(req.raw) as CommandRequestBody).text;
      return text === 'slow'
        ? { status: 200, body: { text: 'finally' }, delayMs: 4_000 }
        : { status: 200, body: { text: `Poll: ${text}`, responseType: 'in_channel' } };
    });
    const command = await ok<SlashCommandWithSecret>(
      'POST',
      `/api/groups/${group.id}/commands`,
      owner,
      { trigger: 'poll', url: rx.url },
      201,
    );
    const ephemeral = record(await socketOf(owner.token), 'message:ephemeral');

    assert.deepEqual((await send(owner, converseId, '/poll lunch?')).body, { command: 'poll', status: 'answered' });
    const posted = (await history(converseId, owner)).at(-1)!;
    assert.deepEqual([posted.content, posted.authorId], ['Poll: lunch?', command.botId]);

    // "working" says the send did not wait for the slow answer; nor had that answer come yet.
    assert.deepEqual((await send(owner, converseId, '/poll slow')).body, { command: 'poll', status: 'working' });
    assert.ok(!ephemeral.some((m) => m.content === 'finally'));
    await until('the late answer', () => ephemeral.some((m) => m.content === 'finally'), 10_000);

    const { responseUrl } = JSON.parse(rx.received.at(-1)!.raw) as CommandRequestBody;
    const path = new URL(responseUrl).pathname;
    const late = await api.request('POST', path, { body: { text: 'Results: pizza', responseType: 'in_channel' } });
    assert.equal(late.status, 200);
    assert.equal((await history(converseId, owner)).at(-1)!.content, 'Results: pizza');
    assert.equal((await api.request('POST', path.replace(/.{5}$/, 'AAAAA'), { body: { text: 'x' } })).status, 404);
    assert.equal((await api.request('POST', path, { body: {} })).status, 400);
  });

  it('a failing command answers "failed"; one that fails after "working" is explained to the caller only', async () => {
    const { owner, member, group, converseId } = await setUp();
    const rx = await receiver((req) =>
      (JSON.parse(req.raw) as CommandRequestBody).text === 'slow' ? { status: 502, delayMs: 3_500 } : { status: 500 },
    );
    await ok('POST', `/api/groups/${group.id}/commands`, owner, { trigger: 'broken', url: rx.url }, 201);
    const mine = record(await socketOf(owner.token), 'message:ephemeral');
    const theirs = record(await socketOf(member.token), 'message:ephemeral');
    assert.deepEqual((await send(owner, converseId, '/broken')).body, { command: 'broken', status: 'failed' });
    assert.deepEqual((await send(owner, converseId, '/broken slow')).body, { command: 'broken', status: 'working' });
    await until('the explanation', () => mine.length === 1, 10_000);
    assert.equal(mine[0]!.content, '/broken failed: its server answered 502');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mine.length, 1);
    assert.equal(theirs.length, 0);
  });

  it('/me and /shrug are built in; an unknown /word is plain text; registration is validated', async () => {
    const { owner, member, group, converseId } = await setUp();
    const me = (await send(owner, converseId, '/me waves')).body as Message;
    assert.deepEqual([me.content, me.emote], ['waves', true]);
    const shrug = (await send(owner, converseId, '/shrug no idea')).body as Message;
    assert.equal(shrug.content, 'no idea ¯\\\\\\_(ツ)\\_/¯');
    assert.equal(shrug.emote, undefined);
    const plain = await send(owner, converseId, '/unknown stays text');
    assert.equal(plain.status, 201);
    assert.equal((plain.body as Message).content, '/unknown stays text');

    const rx = await receiver();
    const base = `/api/groups/${group.id}/commands`;
    await refused('POST', base, owner, 409, 'IM_ERR_CONFLICT', { trigger: 'me', url: rx.url });
    await refused('POST', base, owner, 400, 'IM_ERR_VALIDATION', { trigger: 'Bad Trigger', url: rx.url });
    await refused('POST', base, owner, 400, 'IM_ERR_VALIDATION', { trigger: 'x', url: 'http://192.168.1.1/' });
    await refused('POST', base, member, 403, 'IM_ERR_FORBIDDEN', { trigger: 'x', url: rx.url });
    const made = await ok<SlashCommandWithSecret>('POST', base, owner, { trigger: 'once', url: rx.url }, 201);
    await refused('POST', base, owner, 409, 'IM_ERR_CONFLICT', { trigger: 'once', url: rx.url });
    await ok('DELETE', `${base}/${made.id}`, owner, undefined, 204);
    assert.equal((await send(owner, converseId, '/once more')).status, 201);
  });
  it("tells the group's members' apps when its commands change, so their lists refresh without a reload", async () => {
    const { owner, member, group } = await setUp();
    const socket = await socketOf(member.token);
    const changed = record(socket, 'integrations:changed');
    const base = `/api/groups/${group.id}/commands`;
    const made = await ok<SlashCommandWithSecret>(
      'POST',
      base,
      owner,
      { trigger: 'fresh', url: 'http://127.0.0.1:9/x' },
      201,
    );
    await until('integrations:changed on a new command', () => changed.length === 1);
    assert.deepEqual(changed[0], { groupId: group.id });
    await ok('DELETE', `${base}/${made.id}`, owner, undefined, 204);
    await until('integrations:changed on a deleted command', () => changed.length === 2);
  });
});
