import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bot, BotWithToken, Group, Message, PublicUser } from '@im/protocol';
import { apiSuite } from '../support/api-suite.ts';
import { connectClient } from '../realtime/client.ts';

/** Bots: made by group admins, acting through the same API as people, within their group only. */
describe('bots', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const setUp = async () => {
    const owner = await api.user('bo');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Bot home' }, 201);
    return { owner, group, converseId: group.panels[0]!.converseId };
  };

  it('acts in its group with the same API as people, and is marked as a bot', async () => {
    const { owner, group, converseId } = await setUp();
    const made = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots`, owner, { name: 'Deploy Bot' }, 201);
    assert.equal(made.bot.bot, true);
    assert.equal(made.bot.nickname, 'Deploy Bot');
    assert.match(made.bot.username, /^bot-deploy-bot-[0-9a-f]{4}$/);
    const bot = { token: made.token };

    const seen = await ok<Group>('GET', `/api/groups/${group.id}`, bot);
    assert.equal(seen.memberCount, 2);
    const sent = await ok<Message>(
      'POST',
      `/api/converses/${converseId}/messages`,
      bot,
      { content: 'build green' },
      201,
    );
    assert.equal(sent.authorId, made.bot.id);
    const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, owner);
    assert.equal(history.at(-1)?.content, 'build green');
    assert.equal((await ok<PublicUser>('GET', `/api/users/${made.bot.id}`, owner)).bot, true);

    // Over socket.io too.
    const socket = await connectClient(api.base, made.token);
    try {
      const res = await socket.timeout(5_000).emitWithAck('message:send', { converseId, content: 'from the socket' });
      assert.ok(res.ok && 'id' in res.data && res.data.authorId === made.bot.id);
    } finally {
      socket.disconnect();
    }

    const listed = await ok<Bot[]>('GET', `/api/groups/${group.id}/bots`, owner);
    assert.deepEqual(
      listed.map((b) => [b.id, b.groupId, b.createdBy]),
      [[made.bot.id, group.id, owner.id]],
    );
  });

  it('gets 404 for anything outside its group: other groups, new groups, DMs, invites, its account', async () => {
    const { owner, group } = await setUp();
    const other = await ok<Group>('POST', '/api/groups', owner, { name: 'Elsewhere' }, 201);
    const { token } = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots`, owner, { name: 'Scoped' }, 201);
    const bot = { token };
    await refused('GET', `/api/groups/${other.id}`, bot, 404, 'IM_ERR_NOT_FOUND');
    await refused('GET', `/api/groups/${other.id}/members`, bot, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', `/api/converses/${other.panels[0]!.converseId}/messages`, bot, 404, 'IM_ERR_NOT_FOUND', {
      content: 'hi',
    });
    await refused('POST', '/api/groups', bot, 404, 'IM_ERR_NOT_FOUND', { name: 'Bot made' });
    await refused('POST', '/api/dms', bot, 404, 'IM_ERR_NOT_FOUND', { userId: owner.id });
    // Nor can anyone open a DM with a bot.
    const made = await ok<Bot[]>('GET', `/api/groups/${group.id}/bots`, owner);
    await refused('POST', '/api/dms', owner, 404, 'IM_ERR_NOT_FOUND', { userId: made[0]!.id });
    await refused('PATCH', '/api/users/me', bot, 404, 'IM_ERR_NOT_FOUND', { nickname: 'x' });
    await refused('POST', `/api/groups/${other.id}/join`, bot, 404, 'IM_ERR_NOT_FOUND');
    // Its own group is fine, and a bot is no admin there.
    await ok('GET', `/api/groups/${group.id}/members`, bot);
    await refused('POST', `/api/groups/${group.id}/bots`, bot, 403, 'IM_ERR_FORBIDDEN', { name: 'child' });
  });

  it('only admins make, list and remove bots; outsiders see no group', async () => {
    const { owner, group } = await setUp();
    const member = await api.user('bm');
    const outsider = await api.user('bx');
    const { code } = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    await ok('POST', `/api/invites/${code}/accept`, member);
    await refused('POST', `/api/groups/${group.id}/bots`, member, 403, 'IM_ERR_FORBIDDEN', { name: 'nope' });
    await refused('GET', `/api/groups/${group.id}/bots`, member, 403, 'IM_ERR_FORBIDDEN');
    await refused('POST', `/api/groups/${group.id}/bots`, outsider, 404, 'IM_ERR_NOT_FOUND', { name: 'nope' });
    await refused('POST', `/api/groups/${group.id}/bots`, owner, 400, 'IM_ERR_VALIDATION', { name: '   ' });
    await refused('POST', `/api/groups/${group.id}/bots`, owner, 400, 'IM_ERR_VALIDATION', { name: 'a', extra: 1 });
  });

  it("stops a removed bot's token at once (HTTP and socket), and a new token ends the old one", async () => {
    const { owner, group, converseId } = await setUp();
    const made = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots`, owner, { name: 'Temp' }, 201);
    const renewed = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots/${made.bot.id}/token`, owner);
    await refused('GET', `/api/groups/${group.id}`, { token: made.token }, 401, 'IM_ERR_UNAUTHORIZED');
    await ok('GET', `/api/groups/${group.id}`, { token: renewed.token });

    const socket = await connectClient(api.base, renewed.token);
    const closed = new Promise<void>((resolve) => socket.on('disconnect', () => resolve()));
    await ok('DELETE', `/api/groups/${group.id}/bots/${made.bot.id}`, owner, undefined, 204);
    await refused(
      'POST',
      `/api/converses/${converseId}/messages`,
      { token: renewed.token },
      401,
      'IM_ERR_UNAUTHORIZED',
      {
        content: 'still here?',
      },
    );
    await closed;
    await assert.rejects(connectClient(api.base, renewed.token));
    assert.deepEqual(await ok<Bot[]>('GET', `/api/groups/${group.id}/bots`, owner), []);
    assert.equal((await ok<Group>('GET', `/api/groups/${group.id}`, owner)).memberCount, 1);
    await refused('DELETE', `/api/groups/${group.id}/bots/${made.bot.id}`, owner, 404, 'IM_ERR_NOT_FOUND');
    // A bot cannot log in with a password (it has none).
    const login = await api.request('POST', '/api/auth/login', {
      body: { username: made.bot.username, password: 'x' },
    });
    assert.equal(login.status, 401);
  });

  it('a person cannot post under another name; a bot can', async () => {
    const { owner, group, converseId } = await setUp();
    await refused('POST', `/api/converses/${converseId}/messages`, owner, 400, 'IM_ERR_VALIDATION', {
      content: 'hi',
      username: 'Someone else',
    });
    const { token } = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots`, owner, { name: 'Relay' }, 201);
    const sent = await ok<Message>(
      'POST',
      `/api/converses/${converseId}/messages`,
      { token },
      { content: 'relayed', username: 'CI' },
      201,
    );
    assert.equal(sent.username, 'CI');
  });
});
