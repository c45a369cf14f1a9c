import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { apiSuite } from '../support/api-suite.ts';

type Err = { error: { code: string; message: string; details?: Array<{ field: string }> } };
type Auth = { token: string; user: { id: string; username: string; nickname: string } };

describe('users and auth over HTTP', () => {
  const { api } = apiSuite(import.meta.url);

  it('registers (201), lower-cases the username and never returns the password', async () => {
    const res = await api.request<Auth>('POST', '/api/auth/register', {
      body: { username: 'Alice_1', password: 'password-one', nickname: ' Alice ' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.user.username, 'alice_1');
    assert.equal(res.body.user.nickname, 'Alice');
    assert.match(res.body.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.ok(!JSON.stringify(res.body).includes('password'));
    const stored = await api.node.app.mongo!.collection('users').findOne({ username: 'alice_1' });
    assert.match(String(stored?.passwordHash), /^\$argon2id\$/);
  });

  it('rejects a taken username case-insensitively with 409', async () => {
    const res = await api.request<Err>('POST', '/api/auth/register', {
      body: { username: 'ALICE_1', password: 'password-two' },
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'IM_ERR_USERNAME_TAKEN');
  });

  it('lets exactly one of ten concurrent registrations of one name win', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.request('POST', '/api/auth/register', { body: { username: 'racer', password: 'password-race' } }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, ...Array(9).fill(409)]);
    assert.equal(await api.node.app.mongo!.collection('users').countDocuments({ username: 'racer' }), 1);
  });

  it('logs in, and answers a wrong password and an unknown user alike', async () => {
    const ok = await api.request<Auth>('POST', '/api/auth/login', {
      body: { username: 'Alice_1', password: 'password-one' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.user.username, 'alice_1');
    const wrong = await api.request<Err>('POST', '/api/auth/login', {
      body: { username: 'alice_1', password: 'nope-nope' },
    });
    const unknown = await api.request<Err>('POST', '/api/auth/login', {
      body: { username: 'nobody_here', password: 'nope-nope' },
    });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(wrong.body.error.code, 'IM_ERR_INVALID_CREDENTIALS');
  });

  it('serves me with a token, and 401 without one or with a bad, foreign, or expired one', async () => {
    const { token, id } = await api.user();
    const me = await api.request<{ id: string }>('GET', '/api/users/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, id);

    const none = await api.request<Err>('GET', '/api/users/me');
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer');
    const garbage = await api.request<Err>('GET', '/api/users/me', { token: 'not.a.token' });
    assert.equal(garbage.status, 401);
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(40)));
    assert.equal((await api.request('GET', '/api/users/me', { token: foreign })).status, 401);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(id)
      .setIssuedAt(1_000_000)
      .setExpirationTime(1_000_060)
      .sign(new TextEncoder().encode('s'.repeat(40)));
    const expiredRes = await api.request<Err>('GET', '/api/users/me', { token: expired });
    assert.equal(expiredRes.status, 401);
    assert.equal(expiredRes.body.error.message, 'Access token expired');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: id })).toString('base64url')}.`;
    assert.equal((await api.request('GET', '/api/users/me', { token: unsigned })).status, 401);
  });

  it('updates my profile and validates it', async () => {
    const { token } = await api.user();
    const res = await api.request<{ nickname: string; avatar: string }>('PATCH', '/api/users/me', {
      token,
      body: { nickname: 'Night Owl', avatar: 'https://example.org/a.png' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.nickname, 'Night Owl');
    assert.equal(res.body.avatar, 'https://example.org/a.png');
    for (const body of [
      { avatar: 'javascript:alert(1)' },
      { avatar: 'http://[::1' },
      { avatar: '/api/files/../etc' },
      { nickname: '' },
      { nickname: 'x'.repeat(65) },
      { username: 'renamed' },
      { nickname: { $set: 'x' } },
    ]) {
      const bad = await api.request<Err>('PATCH', '/api/users/me', { token, body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(bad.body.error.code, 'IM_ERR_VALIDATION');
    }
    assert.equal(
      (await api.request<{ nickname: string }>('GET', '/api/users/me', { token })).body.nickname,
      'Night Owl',
    );
  });

  it('shows public profiles by id: 400 for a malformed id, 404 for an unknown one', async () => {
    const a = await api.user();
    const b = await api.user();
    const res = await api.request<{ id: string; username: string }>('GET', `/api/users/${b.id}`, { token: a.token });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'id', 'nickname', 'username']);
    assert.equal((await api.request('GET', '/api/users/zzz', { token: a.token })).status, 400);
    assert.equal((await api.request('GET', '/api/users/0123456789abcdef01234567', { token: a.token })).status, 404);
  });

  it('searches by username or nickname prefix, treating regex characters literally', async () => {
    const { token } = await api.user();
    await api.request('POST', '/api/auth/register', { body: { username: 'searchable_one', password: 'password-s1' } });
    await api.request('POST', '/api/auth/register', {
      body: { username: 'other_name', password: 'password-s2', nickname: 'Searchable Two' },
    });
    const res = await api.request<Array<{ username: string }>>('GET', '/api/users?q=SEARCHable', { token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((u) => u.username).sort(), ['other_name', 'searchable_one']);
    const limited = await api.request<unknown[]>('GET', '/api/users?q=searchable&limit=1', { token });
    assert.equal(limited.body.length, 1);
    assert.deepEqual((await api.request<unknown[]>('GET', '/api/users?q=.*', { token })).body, []);
    // A NUL cannot be searched for (it cannot be part of a database regular expression): a 400, not a 500.
    assert.equal((await api.request('GET', '/api/users?q=a%00b', { token })).status, 400);
    assert.equal((await api.request('GET', '/api/search?q=a%00b', { token })).status, 400);
    assert.equal((await api.request('GET', '/api/users?q=', { token })).status, 400);
    assert.equal((await api.request('GET', '/api/users?q=a&limit=1000', { token })).status, 400);
  });

  it('deleting my account stops my token and keeps the username reserved', async () => {
    const { token, username } = await api.user('gone');
    assert.equal((await api.request('DELETE', '/api/users/me', { token })).status, 204);
    assert.equal((await api.request('GET', '/api/users/me', { token })).status, 401);
    assert.equal(
      (await api.request('POST', '/api/auth/login', { body: { username, password: 'correct horse battery' } })).status,
      401,
    );
    const again = await api.request<{ error: { code: string } }>('POST', '/api/auth/register', {
      body: { username, password: 'another password' },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'IM_ERR_CONFLICT');
  });

  it('answers malformed and hostile bodies with a 4xx and writes nothing', async () => {
    const users = api.node.app.mongo!.collection('users');
    const before = await users.countDocuments();
    const cases: Array<[string | undefined, unknown, number, string]> = [
      [undefined, '{"username": "x",', 400, 'IM_ERR_BAD_JSON'],
      [undefined, '[1,2]', 400, 'IM_ERR_VALIDATION'],
      ['text/plain', 'username=x', 415, 'IM_ERR_UNSUPPORTED_MEDIA_TYPE'],
      [undefined, JSON.stringify({ username: { $gt: '' }, password: 'password-xx' }), 400, 'IM_ERR_VALIDATION'],
      [undefined, JSON.stringify({ username: 'fine_name', password: { $ne: null } }), 400, 'IM_ERR_VALIDATION'],
      [
        undefined,
        JSON.stringify({ username: 'fine_name', password: 'password-xx', $where: '1' }),
        400,
        'IM_ERR_VALIDATION',
      ],
      [
        undefined,
        '{"username": "fine_name", "password": "password-xx", "__proto__": {"admin": true}}',
        400,
        'IM_ERR_VALIDATION',
      ],
      [
        undefined,
        JSON.stringify({ username: 'fine_name', password: 'p'.repeat(2_000_000) }),
        413,
        'IM_ERR_PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [type, raw, status, code] of cases) {
      for (const path of ['/api/auth/register', '/api/auth/login']) {
        const res = await api.request<Err>('POST', path, {
          raw: String(raw),
          headers: { 'content-type': type ?? 'application/json' },
        });
        assert.equal(res.status, status, `${path} ${String(raw).slice(0, 60)}`);
        assert.equal(res.body.error.code, code);
      }
    }
    // Shapes only registration constrains (login treats them as wrong credentials).
    for (const body of [
      { username: 'bad name!', password: 'password-xx' },
      { username: 'x'.repeat(33), password: 'password-xx' },
      { username: 'ab', password: 'password-xx' },
      { username: 'fine_name', password: 'short' },
      { username: 'fine_name', password: 'password-xx', nickname: 'n'.repeat(65) },
    ]) {
      const res = await api.request<Err>('POST', '/api/auth/register', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    assert.equal(await users.countDocuments(), before);
  });

  it('never echoes submitted values in validation details', async () => {
    const res = await api.request<Err>('POST', '/api/auth/register', {
      body: { username: 'echo_test', password: 'short7' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.details?.[0]?.field, 'password');
    assert.ok(!JSON.stringify(res.body).includes('short7'));
  });
});
