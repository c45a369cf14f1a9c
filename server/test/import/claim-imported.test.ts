import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { AdminUserPage, AuthResult, ClaimLink, Group, Me, Message } from '@im/protocol';
import { announceImport, runImport } from '@im/service-import';
import { apiSuite } from '../support/api-suite.ts';
import { arraySource, message } from './array-source.ts';

type Err = { error: { code: string } };

const PASSWORD = 'correct horse battery';
const DANAS_PASSWORD = 'dana has her own now';

/**
 * An import followed by the hand-over of an account it made: the person
 * claims it (a password and a new username) and finds the history the
 * export held under their name; importing the export again finds the
 * claimed account and leaves it as it is.
 */
describe('claiming an account an import made', () => {
  const { api } = apiSuite(import.meta.url, { ADMIN_USERNAMES: 'harbourmaster' });
  let admin: { token: string; id: string };

  const exportOf = () =>
    arraySource({
      groups: [{ key: 'T1', name: 'Harbour' }],
      users: [{ key: 'UD', username: 'dana.old', displayName: 'Dana', email: 'dana@example.test' }],
      channels: [{ key: 'C1', groupKey: 'T1', kind: 'public', name: 'general', memberKeys: ['UD'] }],
      messages: [
        message({ key: 'C1:1', channelKey: 'C1', authorKey: 'UD', text: 'first words', at: '2023-05-01T08:00:00Z' }),
        message({ key: 'C1:2', channelKey: 'C1', authorKey: 'UD', text: 'and more', at: '2023-05-01T08:01:00Z' }),
      ],
    });
  const importIt = () =>
    runImport(api.node.app.mongo!.db!, api.node.app.storage!, exportOf(), { owner: 'harbourmaster' });

  before(async () => {
    const res = await api.request<AuthResult>('POST', '/api/auth/register', {
      body: { username: 'harbourmaster', password: PASSWORD },
    });
    admin = { token: res.body.token, id: res.body.user.id };
  });

  it('hands the imported account over, with its history, and a second import leaves it claimed', async () => {
    const first = await importIt();
    assert.equal(first.summary.users, 1);
    await announceImport(api.broker, first);

    const listed = await api.request<AdminUserPage>('GET', '/api/admin/users?q=dana', { token: admin.token });
    const dana = listed.body.items.find((u) => u.username === 'dana.old');
    assert.ok(dana, JSON.stringify(listed.body));
    assert.equal(dana.imported, true);

    const link = await api.request<ClaimLink>('POST', `/api/admin/users/${dana.id}/claim-link`, {
      token: admin.token,
    });
    assert.equal(link.status, 200);
    const token = new URL(link.body.url).searchParams.get('token')!;
    const claimed = await api.request<AuthResult & Err>('POST', '/api/auth/claim', {
      body: { token, password: DANAS_PASSWORD, username: 'dana' },
    });
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
    assert.deepEqual([claimed.body.user.id, claimed.body.user.username], [dana.id, 'dana']);

    const groups = (await api.request<Group[]>('GET', '/api/groups', { token: claimed.body.token })).body;
    const harbour = groups.find((g) => g.name === 'Harbour');
    assert.ok(harbour, 'the imported group is hers');
    const general = harbour.panels.find((p) => p.name === 'general')!;
    const history = (
      await api.request<Message[]>('GET', `/api/converses/${general.converseId}/messages`, {
        token: claimed.body.token,
      })
    ).body;
    assert.deepEqual(
      history.sort((a, b) => a.seq - b.seq).map((m) => [m.authorId, m.content, m.createdAt]),
      [
        [dana.id, 'first words', '2023-05-01T08:00:00.000Z'],
        [dana.id, 'and more', '2023-05-01T08:01:00.000Z'],
      ],
    );

    const again = await importIt();
    assert.equal(again.summary.users, 0, 'the claimed account is found, not made again');
    assert.equal(again.summary.messages, 0);
    const login = await api.request<AuthResult>('POST', '/api/auth/login', {
      body: { username: 'dana', password: DANAS_PASSWORD },
    });
    assert.equal(login.status, 200, 'still hers, with her password');
    const me = await api.request<Me>('GET', '/api/users/me', { token: login.body.token });
    assert.equal(me.body.imported, undefined, 'not marked imported again');
  });
});
