import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type {
  AdminUserPage,
  AuditPage,
  AuthOptions,
  AuthResult,
  Group,
  Invite,
  Me,
  Message,
  Report,
  ServerSettings,
} from '@im/protocol';
import { connectClient } from '../realtime/client.ts';
import { apiSuite } from '../support/api-suite.ts';

type Err = { error: { code: string; message: string } };
type User = { token: string; id: string; username: string };

const PASSWORD = 'correct horse battery';

/** Server administration (ADMIN_USERNAMES): accounts, the registration mode, DM reports and the whole audit log. */
describe('server administration', () => {
  const { api } = apiSuite(import.meta.url, { ADMIN_USERNAMES: ' Root ,ops, Boss' });
  let root: User;

  const register = (body: Record<string, unknown>) =>
    api.request<AuthResult & Err>('POST', '/api/auth/register', { body: { password: PASSWORD, ...body } });
  const ok = async <T>(method: string, path: string, user: User, body?: unknown, status = 200): Promise<T> => {
    const res = await api.request<T>(method, path, { token: user.token, ...(body !== undefined ? { body } : {}) });
    assert.equal(res.status, status, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const refused = async (
    method: string,
    path: string,
    user: User | undefined,
    status: number,
    code: string,
    body?: unknown,
  ) => {
    const res = await api.request<Err>(method, path, {
      ...(user ? { token: user.token } : {}),
      ...(body !== undefined ? { body } : {}),
    });
    assert.equal(res.status, status, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, code);
  };
  const setRegistration = (registration: string) =>
    ok<ServerSettings>('PATCH', '/api/admin/settings', root, { registration });
  const serverAudit = async () => (await ok<AuditPage>('GET', '/api/admin/audit?limit=100', root)).items;

  before(async () => {
    const res = await register({ username: 'root' });
    assert.equal(res.status, 201);
    root = { token: res.body.token, id: res.body.user.id, username: 'root' };
  });

  it('tells a server admin apart, and refuses /api/admin to everyone else', async () => {
    assert.equal((await ok<Me>('GET', '/api/users/me', root)).serverAdmin, true);
    const plain = await api.user('plain');
    assert.equal((await ok<Me>('GET', '/api/users/me', plain)).serverAdmin, false);
    for (const path of ['/api/admin/users', '/api/admin/audit', '/api/admin/settings', '/api/admin/reports'])
      await refused('GET', path, plain, 403, 'IM_ERR_FORBIDDEN');
    await refused('POST', `/api/admin/users/${root.id}/deactivate`, plain, 403, 'IM_ERR_FORBIDDEN');
    await refused('GET', '/api/admin/users', undefined, 401, 'IM_ERR_UNAUTHORIZED');
  });

  it('lists and searches accounts with paging', async () => {
    const a = await api.user('zed');
    const b = await api.user('zed');
    const page = await ok<AdminUserPage>('GET', '/api/admin/users?limit=1', root);
    assert.equal(page.items.length, 1);
    assert.equal(page.items[0]!.id, root.id, 'oldest first');
    assert.equal(page.items[0]!.serverAdmin, true);
    assert.equal(page.items[0]!.active, true);
    assert.ok(page.items[0]!.lastSeenAt);
    assert.ok(page.nextCursor);
    const next = await ok<AdminUserPage>('GET', `/api/admin/users?limit=1&cursor=${page.nextCursor}`, root);
    assert.notEqual(next.items[0]!.id, root.id);
    const found = await ok<AdminUserPage>('GET', '/api/admin/users?q=ZED', root);
    assert.deepEqual(
      found.items.map((u) => u.id),
      [a.id, b.id],
    );
    await refused('GET', '/api/admin/users?limit=500', root, 400, 'IM_ERR_VALIDATION');
    await refused('GET', '/api/admin/users?cursor=x', root, 400, 'IM_ERR_VALIDATION');
  });

  it('deactivates an account: tokens and sockets end at once, login is refused; activation lets it back', async () => {
    const victim = await api.user('vic');
    const socket = await connectClient(api.base, victim.token);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await ok('POST', `/api/admin/users/${victim.id}/deactivate`, root, undefined, 204);
    assert.equal(await closed, 'io server disconnect');
    await refused('GET', '/api/users/me', victim, 401, 'IM_ERR_UNAUTHORIZED');
    const login = await api.request<Err>('POST', '/api/auth/login', {
      body: { username: victim.username, password: PASSWORD },
    });
    assert.equal(login.status, 401);
    assert.equal(login.body.error.code, 'IM_ERR_ACCOUNT_DEACTIVATED');
    // A wrong password says nothing about the account.
    const wrong = await api.request<Err>('POST', '/api/auth/login', {
      body: { username: victim.username, password: 'not the password' },
    });
    assert.equal(wrong.body.error.code, 'IM_ERR_INVALID_CREDENTIALS');
    const listed = await ok<AdminUserPage>('GET', `/api/admin/users?q=${victim.username}`, root);
    assert.equal(listed.items[0]!.active, false);

    await ok('POST', `/api/admin/users/${victim.id}/deactivate`, root, undefined, 204);
    await ok('POST', `/api/admin/users/${victim.id}/activate`, root, undefined, 204);
    const again = await api.request<AuthResult>('POST', '/api/auth/login', {
      body: { username: victim.username, password: PASSWORD },
    });
    assert.equal(again.status, 200);

    const entries = await serverAudit();
    assert.equal(entries.filter((e) => e.action === 'user.deactivate' && e.target.id === victim.id).length, 1);
    assert.equal(entries.filter((e) => e.action === 'user.activate' && e.target.id === victim.id).length, 1);
    assert.equal(entries.find((e) => e.action === 'user.deactivate')!.actorId, root.id);
  });

  it('never deactivates a server admin or the caller, nor an unknown account', async () => {
    const ops = await register({ username: 'ops' });
    await refused('POST', `/api/admin/users/${ops.body.user.id}/deactivate`, root, 403, 'IM_ERR_FORBIDDEN');
    await refused('POST', `/api/admin/users/${root.id}/deactivate`, root, 403, 'IM_ERR_FORBIDDEN');
    await refused('POST', `/api/admin/users/${'0'.repeat(24)}/deactivate`, root, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', '/api/admin/users/nope/deactivate', root, 400, 'IM_ERR_VALIDATION');
  });

  it('switches registration between open, invite and closed; server admins may always register', async () => {
    try {
      const owner = await api.user('own');
      const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Invite only' }, 201);
      const invite = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, owner, { maxUses: 1 }, 201);

      await setRegistration('closed');
      assert.equal((await api.request<AuthOptions>('GET', '/api/auth/options')).body.registration, 'closed');
      const shut = await register({ username: 'latecomer' });
      assert.equal(shut.status, 403);
      assert.equal(shut.body.error.code, 'IM_ERR_REGISTRATION_CLOSED');
      assert.equal((await register({ username: 'Boss' })).status, 201, 'a server admin registers whatever the mode');

      await setRegistration('invite');
      const without = await register({ username: 'latecomer' });
      assert.equal(without.body.error.code, 'IM_ERR_REGISTRATION_CLOSED');
      const bad = await register({ username: 'latecomer', inviteCode: 'nosuchcode' });
      assert.equal(bad.status, 404);
      const joined = await register({ username: 'latecomer', inviteCode: invite.code });
      assert.equal(joined.status, 201, JSON.stringify(joined.body));
      const groups = await api.request<Group[]>('GET', '/api/groups', { token: joined.body.token });
      assert.deepEqual(
        groups.body.map((g) => g.id),
        [group.id],
      );
      // The one use is spent: the next registration is refused and leaves no account behind.
      const spent = await register({ username: 'second', inviteCode: invite.code });
      assert.equal(spent.status, 404);
      assert.equal(await api.node.app.mongo!.collection('users').countDocuments({ username: 'second' }), 0);

      await setRegistration('open');
      assert.equal((await register({ username: 'second' })).status, 201);
      await refused('PATCH', '/api/admin/settings', await api.user('x'), 403, 'IM_ERR_FORBIDDEN', {
        registration: 'closed',
      });
      const bodyless = await api.request<Err>('PATCH', '/api/admin/settings', {
        token: root.token,
        body: { registration: 'maybe' },
      });
      assert.equal(bodyless.status, 400);
      const changes = (await serverAudit()).filter((e) => e.action === 'settings.update');
      assert.deepEqual(
        changes.map((e) => [e.details.from, e.details.to]),
        [
          ['invite', 'open'],
          ['closed', 'invite'],
          ['open', 'closed'],
        ],
      );
    } finally {
      await setRegistration('open');
    }
  });

  it("puts reports of DMs in the server admins' queue, where they can delete the message", async () => {
    const [a, b] = await Promise.all([api.user('dma'), api.user('dmb')]);
    const dm = await ok<{ id: string }>('POST', '/api/dms', a, { userId: b.id });
    const rude = await ok<Message>('POST', `/api/converses/${dm.id}/messages`, b, { content: 'rude words' }, 201);
    const report = await ok<Report>('POST', `/api/messages/${rude.id}/report`, a, { reason: 'harassment' }, 201);
    assert.equal(report.groupId, null);
    const queue = await ok<Report[]>('GET', '/api/admin/reports', root);
    assert.ok(queue.some((r) => r.id === report.id));
    const done = await ok<Report>('POST', `/api/admin/reports/${report.id}/resolve`, root, { action: 'delete' });
    assert.equal(done.status, 'deleted');
    const seen = await ok<Message>('GET', `/api/messages/${rude.id}`, a);
    assert.equal(seen.deleted, true);
    const entries = await serverAudit();
    assert.equal(entries.filter((e) => e.action === 'message.delete' && e.target.id === rude.id).length, 1);
    assert.equal(entries.filter((e) => e.action === 'report.resolve' && e.target.id === report.id).length, 1);
  });
});
