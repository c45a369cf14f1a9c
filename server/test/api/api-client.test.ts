import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiCallError, apiPath, createApiClient, fetchTransport, type ApiClient } from '@im/api-client';
import { startApi, type ApiHarness } from './harness.ts';

/** The typed API client (packages/api-client) against a running node: paths, queries, bodies, answers, refusals. */
describe('the typed API client', () => {
  let harness: ApiHarness;
  const as = (token: string | null): ApiClient =>
    createApiClient(fetchTransport({ baseUrl: harness.base, token: () => token }));

  before(async () => {
    harness = await startApi(import.meta.url);
  });
  after(() => harness.close());

  it('fills path parameters, sends the rest as the JSON body or the query, and answers typed bodies', async () => {
    const owner = await harness.user('cli');
    const api = as(owner.token);
    const group = await api.call('group.create', { name: 'Typed' });
    const converseId = group.panels[0]!.converseId;
    const sent = [];
    for (const content of ['one', 'two', 'three']) sent.push(await api.call('chat.send', { converseId, content }));
    assert.ok(sent.every((m) => 'seq' in m));
    const page = await api.call('chat.history', { converseId, before: 3, limit: 10 });
    assert.deepEqual(
      page.map((m) => m.content),
      ['one', 'two'],
    );
    const edited = await api.call('chat.edit', { messageId: page[0]!.id, content: 'uno' });
    assert.equal(edited.content, 'uno');
  });

  it('answers undefined for a 204, and throws the error code of a refusal', async () => {
    const owner = await harness.user('cli');
    const api = as(owner.token);
    const group = await api.call('group.create', { name: 'Gone soon' });
    assert.equal(await api.call('group.remove', { groupId: group.id }), undefined);
    const refused = await api.call('group.get', { groupId: group.id }).then(
      () => assert.fail('a deleted group is not found'),
      (err: unknown) => err,
    );
    assert.ok(refused instanceof ApiCallError);
    assert.equal(refused.status, 404);
    assert.equal(refused.code, 'IM_ERR_NOT_FOUND');
    await assert.rejects(as(null).call('user.me'), (err) => err instanceof ApiCallError && err.status === 401);
  });

  it('builds paths: path parameters encoded, query parameters only for query endpoints', () => {
    assert.equal(
      apiPath('chat.react', { messageId: 'm1', emoji: '👍/x' }),
      '/api/messages/m1/reactions/%F0%9F%91%8D%2Fx',
    );
    assert.equal(
      apiPath('chat.history', { converseId: 'c1', after: 5, limit: 20 }),
      '/api/converses/c1/messages?after=5&limit=20',
    );
    assert.equal(apiPath('user.search', { q: 'a b', limit: undefined }), '/api/users?q=a+b');
    assert.equal(apiPath('file.download', { fileId: 'f1' }), '/api/files/f1');
  });
});
