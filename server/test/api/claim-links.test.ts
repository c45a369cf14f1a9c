import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { AdminUserPage, AuditPage, AuthResult, ClaimLink, Me, PublicUser } from '@im/protocol';
import { LinkTokens } from '@im/sdk';
import { Types } from 'mongoose';
import { apiSuite } from '../support/api-suite.ts';
import { startSingleNode } from './harness.ts';

type Err = { error: { code: string; message: string } };
type User = { token: string; id: string; username: string };

const PASSWORD = 'correct horse battery';
const CLAIMED_PASSWORD = 'my own passphrase now';
const PUBLIC_URL = 'http://chat.example.org';
/** The harness's SECRET: the test signs a claim token of its own with it, on a clock a week back. */
const SECRET = 's'.repeat(40);

/** Accounts an import made (imported, no password), handed over with claim links. */
describe('claim links for imported accounts', () => {
  const { api } = apiSuite(import.meta.url, { ADMIN_USERNAMES: 'claimroot', PUBLIC_URL });
  let admin: User;
  let imports = 0;

  const users = () => api.node.app.mongo!.collection('users');

  /** An account as the importer writes it: imported, no password, perhaps an address and a display name. */
  const importedUser = async (name?: string): Promise<{ id: string; username: string }> => {
    imports += 1;
    const username = name ?? `imported${process.pid}x${imports}`;
    const _id = new Types.ObjectId();
    await users().insertOne({
      _id,
      username,
      nickname: `Imported ${imports}`,
      nicknameLower: `imported ${imports}`,
      email: `${username}@example.org`,
      emailLower: `${username}@example.org`,
      status: 'active',
      imported: true,
      createdAt: new Date('2024-01-01T00:00:00Z'),
    });
    return { id: _id.toHexString(), username };
  };

  const claimLink = (userId: string, by: User = admin) =>
    api.request<ClaimLink & Err>('POST', `/api/admin/users/${userId}/claim-link`, { token: by.token });
  const tokenOf = (link: ClaimLink) => new URL(link.url).searchParams.get('token')!;
  const claim = (token: string, body: Record<string, unknown> = {}) =>
    api.request<AuthResult & Err>('POST', '/api/auth/claim', { body: { token, password: CLAIMED_PASSWORD, ...body } });
  const login = (username: string, password: string) =>
    api.request<AuthResult & Err>('POST', '/api/auth/login', { body: { username, password } });

  before(async () => {
    const res = await api.request<AuthResult>('POST', '/api/auth/register', {
      body: { username: 'claimroot', password: PASSWORD },
    });
    assert.equal(res.status, 201);
    admin = { token: res.body.token, id: res.body.user.id, username: 'claimroot' };
  });

  it('shows imported accounts as imported, to everyone and in the admin list', async () => {
    const person = await importedUser();
    const other = await api.user('viewer');
    const profile = await api.request<PublicUser>('GET', `/api/users/${person.id}`, { token: other.token });
    assert.equal(profile.body.imported, true);
    const mine = await api.request<PublicUser>('GET', `/api/users/${other.id}`, { token: other.token });
    assert.equal(mine.body.imported, undefined, 'a registered account is not marked');
    const page = await api.request<AdminUserPage>('GET', `/api/admin/users?q=${person.username}`, {
      token: admin.token,
    });
    assert.deepEqual(
      page.body.items.map((u) => [u.username, u.imported]),
      [[person.username, true]],
    );
  });

  it('hands an account over: the link sets the password once, signs in, and the account is no longer imported', async () => {
    const person = await importedUser();
    const before = await login(person.username, CLAIMED_PASSWORD);
    assert.deepEqual([before.status, before.body.error.code], [403, 'IM_ERR_NO_PASSWORD']);
    assert.match(before.body.error.message, /claim link/);

    const made = await claimLink(person.id);
    assert.equal(made.status, 200);
    assert.ok(made.body.url.startsWith(`${PUBLIC_URL}/claim?token=`), made.body.url);
    const days = (Date.parse(made.body.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);

    const claimed = await claim(tokenOf(made.body));
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
    assert.equal(claimed.body.user.id, person.id);
    assert.equal(claimed.body.user.imported, undefined);
    const me = await api.request<Me>('GET', '/api/users/me', { token: claimed.body.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.hasPassword, true);
    assert.equal(me.body.email, `${person.username}@example.org`, 'what the import wrote is kept');

    assert.equal((await login(person.username, CLAIMED_PASSWORD)).status, 200);

    const again = await claim(tokenOf(made.body), { password: 'somebody else now' });
    assert.deepEqual([again.status, again.body.error.code], [410, 'IM_ERR_LINK_USED']);
    assert.equal((await login(person.username, CLAIMED_PASSWORD)).status, 200, 'the second use changed nothing');

    const noMore = await claimLink(person.id);
    assert.deepEqual([noMore.status, noMore.body.error.code], [409, 'IM_ERR_CONFLICT'], 'claimed: no new link');
  });

  it('takes a new username at the claim, if free', async () => {
    const person = await importedUser();
    const taken = await claim(tokenOf((await claimLink(person.id)).body), { username: admin.username });
    assert.deepEqual([taken.status, taken.body.error.code], [409, 'IM_ERR_USERNAME_TAKEN']);
    const reserved = await claim(tokenOf((await claimLink(person.id)).body), { username: 'deleted-me' });
    assert.equal(reserved.status, 400);

    const newName = `chosen${process.pid}`;
    const claimed = await claim(tokenOf((await claimLink(person.id)).body), { username: newName.toUpperCase() });
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
    assert.equal(claimed.body.user.username, newName);
    assert.equal((await login(newName, CLAIMED_PASSWORD)).status, 200);
    assert.equal((await login(person.username, CLAIMED_PASSWORD)).status, 401, 'the imported name is free again');
  });

  it('voids an older link when a newer one is made', async () => {
    const person = await importedUser();
    const older = tokenOf((await claimLink(person.id)).body);
    const newer = tokenOf((await claimLink(person.id)).body);
    const refused = await claim(older);
    assert.deepEqual([refused.status, refused.body.error.code], [410, 'IM_ERR_LINK_USED']);
    assert.equal((await claim(newer)).status, 200);
  });

  it('refuses an expired link, a forged one and a reset link', async () => {
    const person = await importedUser();
    const real = tokenOf((await claimLink(person.id)).body);
    const stored = await users().findOne({ _id: new Types.ObjectId(person.id) });
    const nonce = stored!.claimNonce as string;
    assert.ok(nonce, 'the link is bound to a nonce stored on the account');

    const weekAgo = () => new Date(Date.now() - 7 * 86_400_000 - 60_000);
    const expired = await new LinkTokens(SECRET, weekAgo).sign('claim-account', { userId: person.id, bound: nonce });
    const late = await claim(expired);
    assert.deepEqual([late.status, late.body.error.code], [410, 'IM_ERR_LINK_EXPIRED']);

    const forged = await claim(`${real.slice(0, -4)}AAAA`);
    assert.deepEqual([forged.status, forged.body.error.code], [400, 'IM_ERR_LINK_INVALID']);

    const otherPurpose = await new LinkTokens(SECRET).sign('password-reset', { userId: person.id, bound: nonce });
    assert.equal((await claim(otherPurpose)).body.error.code, 'IM_ERR_LINK_INVALID');

    const short = await claim(real, { password: 'short' });
    assert.equal(short.status, 400, 'the password rules of registration');

    assert.equal((await claim(real)).status, 200, 'the real link still works');
  });

  it('is for server admins, on imported accounts only', async () => {
    const person = await importedUser();
    const someone = await api.user('notadmin');
    const forbidden = await claimLink(person.id, someone);
    assert.deepEqual([forbidden.status, forbidden.body.error.code], [403, 'IM_ERR_FORBIDDEN']);

    const missing = await claimLink(new Types.ObjectId().toHexString());
    assert.deepEqual([missing.status, missing.body.error.code], [404, 'IM_ERR_NOT_FOUND']);

    const normal = await claimLink(someone.id);
    assert.deepEqual([normal.status, normal.body.error.code], [409, 'IM_ERR_CONFLICT']);
    assert.equal((await login(someone.username, PASSWORD)).status, 200, 'the normal account is untouched');
  });

  it('records both in the server audit log', async () => {
    const person = await importedUser();
    const claimed = await claim(tokenOf((await claimLink(person.id)).body));
    assert.equal(claimed.status, 200);
    const audit = await api.request<AuditPage>('GET', '/api/admin/audit?limit=100', { token: admin.token });
    const about = audit.body.items.filter((e) => e.target.type === 'user' && e.target.id === person.id);
    assert.deepEqual(
      about.map((e) => [e.action, e.actorId]),
      [
        ['user.claim', person.id],
        ['user.claimLink', admin.id],
      ],
    );
  });

  it('does not make an imported account a server admin by its name', async () => {
    await importedUser('claimroot2');
    await users().insertOne({
      username: 'claimroot3',
      nickname: 'Plain',
      nicknameLower: 'plain',
      status: 'active',
      createdAt: new Date(),
    });
    // Another node starting on the same data syncs ADMIN_USERNAMES onto the accounts of those names.
    const { node } = await startSingleNode(api.env, { ADMIN_USERNAMES: 'claimroot,claimroot2,claimroot3' });
    try {
      const flags = await users()
        .find({ username: { $in: ['claimroot2', 'claimroot3'] } })
        .sort({ username: 1 })
        .toArray();
      assert.deepEqual(
        flags.map((d) => [d.username, d.serverAdmin ?? false]),
        [
          ['claimroot2', false],
          ['claimroot3', true],
        ],
      );
    } finally {
      await node.stop();
    }
  });
});
