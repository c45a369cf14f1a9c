import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthResult, Bot, BotWithToken, FeedToken, Group, Me, ResetLink } from '@im/protocol';
import type { RunningNode } from '../../src/node.ts';
import { expectations, startApi, startSingleNode, type ApiErrorBody, type ApiHarness } from '../api/harness.ts';

const PASSWORD = 'correct horse battery';
type Account = { token: string; id: string; username: string };

const registerOn = async (
  base: string,
  username: string,
): Promise<{ status: number; body: AuthResult & ApiErrorBody }> => {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  return { status: res.status, body: (await res.json()) as AuthResult & ApiErrorBody };
};

const accountOf = (res: { body: AuthResult }, username: string): Account => ({
  token: res.body.token,
  id: res.body.user.id,
  username,
});

const isAdminOn = async (base: string, token: string): Promise<boolean> => {
  const res = await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return ((await res.json()) as Me).serverAdmin;
};

/** Server admin is a stored flag: it follows the account, never a username. */
describe("a deleted server admin's username", () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url, { ADMIN_USERNAMES: 'chief', REGISTRATION: 'closed' });
  });
  after(() => api.close());
  const { ok, refused } = expectations(() => api);

  it('stays reserved: nobody registers it, so nobody inherits admin rights', async () => {
    const registered = await registerOn(api.base, 'chief');
    assert.equal(registered.status, 201, 'a name of ADMIN_USERNAMES may register while registration is closed');
    const chief = accountOf(registered, 'chief');
    assert.equal((await ok<Me>('GET', '/api/users/me', chief)).serverAdmin, true);
    await ok('DELETE', '/api/users/me', chief, undefined, 204);

    for (const name of ['chief', 'CHIEF']) {
      const again = await registerOn(api.base, name);
      assert.equal(again.status, 409, `${name}: ${JSON.stringify(again.body)}`);
      assert.equal(again.body.error.code, 'IM_ERR_CONFLICT');
    }
    const login = await api.request('POST', '/api/auth/login', { body: { username: 'chief', password: PASSWORD } });
    assert.equal(login.status, 401);
    // Anyone else is still refused while registration is closed.
    const other = await registerOn(api.base, 'someone');
    assert.equal(other.body.error.code, 'IM_ERR_REGISTRATION_CLOSED');
    await refused('GET', '/api/admin/users', chief, 401, 'IM_ERR_UNAUTHORIZED');
  });
});

describe('usernames starting with deleted-', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(() => api.close());
  const { ok, refused } = expectations(() => api);

  it("are refused at registration, so nobody can block another account's deletion", async () => {
    const victim = await api.user('victim');
    for (const name of [`deleted-${victim.id}`, `Deleted-${victim.id}`, 'deleted-x']) {
      const res = await registerOn(api.base, name);
      assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'IM_ERR_VALIDATION');
    }
    const group = await ok<Group>('POST', '/api/groups', victim, { name: 'Mine' }, 201);
    await ok('DELETE', '/api/users/me', victim, undefined, 204);
    await refused('GET', '/api/users/me', victim, 401, 'IM_ERR_UNAUTHORIZED');
    const someone = await api.user('other');
    await refused('GET', `/api/groups/${group.id}`, someone, 404, 'IM_ERR_NOT_FOUND');
    // Names that merely contain the word are fine.
    assert.equal((await registerOn(api.base, `un-deleted-${process.pid}`)).status, 201);
  });

  it('an account is deleted and a bot removed whole even when their tombstone name is taken', async () => {
    // As an account registered before the prefix was refused would hold it.
    const users = api.node.app.mongo!.collection('users');
    const squat = (name: string) =>
      users.insertOne({ username: name, nickname: name, nicknameLower: name, status: 'active', createdAt: new Date() });

    const owner = await api.user('owner');
    const victim = await api.user('victim');
    const group = await ok<Group>('POST', '/api/groups', victim, { name: 'Theirs' }, 201);
    await squat(`deleted-${victim.id}`);
    await ok('DELETE', '/api/users/me', victim, undefined, 204);
    await refused('GET', '/api/users/me', victim, 401, 'IM_ERR_UNAUTHORIZED');
    await refused('GET', `/api/groups/${group.id}`, owner, 404, 'IM_ERR_NOT_FOUND');
    assert.equal((await users.findOne({ username: victim.username }))?.status, undefined, 'no live account keeps it');

    const mine = await ok<Group>('POST', '/api/groups', owner, { name: 'Bots' }, 201);
    const made = await ok<BotWithToken>('POST', `/api/groups/${mine.id}/bots`, owner, { name: 'Helper' }, 201);
    await squat(`deleted-${made.bot.id}`);
    await ok('DELETE', `/api/groups/${mine.id}/bots/${made.bot.id}`, owner, undefined, 204);
    await refused('GET', `/api/groups/${mine.id}`, { token: made.token }, 401, 'IM_ERR_UNAUTHORIZED');
    assert.deepEqual(await ok<Bot[]>('GET', `/api/groups/${mine.id}/bots`, owner), []);
  });
});

describe('ADMIN_USERNAMES promotes accounts, which keep the flag', () => {
  let api: ApiHarness;
  let node: RunningNode | undefined;
  let base = '';
  const restart = async (adminUsernames: string) => {
    await (node ?? api.node).stop();
    ({ node, base } = await startSingleNode(api.env, { ADMIN_USERNAMES: adminUsernames, REGISTRATION: 'closed' }));
  };
  before(async () => {
    api = await startApi(import.meta.url, { ADMIN_USERNAMES: 'first' });
    base = api.base;
  });
  after(async () => {
    await (node ?? api.node).stop();
    await api.env.close();
  });

  it('at start and at registration; a real admin stays one across restarts', async () => {
    const first = accountOf(await registerOn(base, 'first'), 'first');
    const later = accountOf(await registerOn(base, 'later'), 'later');
    assert.equal(await isAdminOn(base, first.token), true, 'promoted when it registered');
    assert.equal(await isAdminOn(base, later.token), false);

    await restart('first,later,third');
    assert.equal(await isAdminOn(base, first.token), true, 'still an admin after a restart');
    assert.equal(await isAdminOn(base, later.token), true, 'promoted when the server started');
    const third = await registerOn(base, 'third');
    assert.equal(third.status, 201, 'a name of the list may register while registration is closed');
    assert.equal(await isAdminOn(base, third.body.token), true);
    const users = await fetch(`${base}/api/admin/users`, { headers: { authorization: `Bearer ${later.token}` } });
    assert.equal(users.status, 200);

    // Out of the list: the flag goes at the next start.
    await restart('first,third');
    assert.equal(await isAdminOn(base, later.token), false);
    assert.equal(await isAdminOn(base, first.token), true);
  });
});

describe('feed tokens', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url, { ADMIN_USERNAMES: 'feedadmin' });
  });
  after(() => api.close());
  const { ok } = expectations(() => api);
  const feed = async (token: string, converseId: string) =>
    (await fetch(`${api.base}/feeds/${token}/converses/${converseId}.atom`)).status;
  const login = async (user: Account, password: string) => {
    const res = await api.request<AuthResult>('POST', '/api/auth/login', {
      body: { username: user.username, password },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { ...user, token: res.body.token };
  };

  it('end with a password change, "log out everywhere" and a password reset; a new one works', async () => {
    let alice = await api.user('feed');
    const group = await ok<Group>('POST', '/api/groups', alice, { name: 'Feeds' }, 201);
    const converseId = group.panels[0]!.converseId;

    const first = await ok<FeedToken>('POST', '/api/feeds/token', alice);
    assert.equal(await feed(first.token, converseId), 200);
    const second = await ok<FeedToken>('POST', '/api/feeds/token', alice);
    assert.equal(await feed(first.token, converseId), 404, 'a new token revokes the old');
    assert.equal(await feed(second.token, converseId), 200);

    await ok('POST', '/api/auth/password', alice, { currentPassword: PASSWORD, newPassword: 'a new password' }, 204);
    assert.equal(await feed(second.token, converseId), 404, 'a password change revokes it');
    assert.equal((await ok<Me>('GET', '/api/users/me', alice)).id, alice.id, 'this session goes on');

    const third = await ok<FeedToken>('POST', '/api/feeds/token', alice);
    assert.equal(await feed(third.token, converseId), 200);
    const elsewhere = await login(alice, 'a new password');
    await ok('DELETE', '/api/auth/sessions', alice, undefined, 204);
    assert.equal(await feed(third.token, converseId), 404, '"log out everywhere" revokes it');
    for (const token of [alice.token, elsewhere.token])
      assert.equal((await api.request('GET', '/api/users/me', { token })).status, 401);

    alice = await login(alice, 'a new password');
    const fourth = await ok<FeedToken>('POST', '/api/feeds/token', alice);
    assert.equal(await feed(fourth.token, converseId), 200);
    const admin = accountOf(await registerOn(api.base, 'feedadmin'), 'feedadmin');
    const link = await ok<ResetLink>('POST', `/api/admin/users/${alice.id}/reset-link`, admin);
    const token = new URL(link.url).searchParams.get('token')!;
    const reset = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, newPassword: 'the third password' },
    });
    assert.equal(reset.status, 204);
    assert.equal(await feed(fourth.token, converseId), 404, 'a password reset revokes it');
  });
});
