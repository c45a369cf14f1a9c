import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { endpoint } from '@im/sdk';
import { API_CLIENT_FILE, generateApiClient, schemaToTs } from '../src/api/generate-api-client.ts';

describe('the typed API client table', () => {
  it('is current with the endpoint table (npm run api:client rewrites it)', async () => {
    assert.equal(
      readFileSync(API_CLIENT_FILE, 'utf8'),
      await generateApiClient(),
      'packages/api-client/src/operations.generated.ts is stale: run npm run api:client',
    );
  });

  it("types an endpoint's parameters by where they go, and its answers by the protocol's names", async () => {
    const source = await generateApiClient([
      endpoint({
        method: 'POST',
        path: '/api/converses/:converseId/messages',
        action: 'chat.send',
        params: {
          converseId: { type: 'string', optional: true },
          content: { type: 'string', max: 10 },
          kind: { type: 'enum', values: ['a', 'b'], optional: true },
        },
        input: 'body',
        status: 201,
        summary: 'Send',
        tag: 'messages',
        response: 'Message',
        accepted: { response: 'SendAccepted', when: () => false, description: 'A command' },
      }),
      endpoint({
        method: 'DELETE',
        path: '/api/groups/:groupId',
        action: 'group.remove',
        params: { groupId: 'string', reason: 'string' },
        input: 'none',
        status: 204,
        summary: 'Delete',
        tag: 'groups',
      }),
    ]);
    const flat = source.replace(/\s+/g, ' ');
    // A path parameter is required even when the action's schema lets it be left out.
    assert.match(
      flat,
      /'chat\.send': \{ path: \{ converseId: string \}; params: \{ converseId: string; content: string; kind\?: 'a' \| 'b' \}/,
    );
    assert.match(flat, /response: ApiSchemas\['Message'\] \| ApiSchemas\['SendAccepted'\]/);
    // `none`: only the path's parameters are sent; 204 answers nothing.
    assert.match(
      flat,
      /'group\.remove': \{ path: \{ groupId: string \}; params: \{ groupId: string \}; response: void \}/,
    );
    assert.match(flat, /'group\.remove': \{ method: 'DELETE', path: '\/api\/groups\/:groupId', input: 'none'/);
  });

  it('refuses two endpoints with one operationId', async () => {
    const twice = endpoint({
      method: 'GET',
      path: '/api/x',
      action: 'x.get',
      params: {},
      input: 'query',
      summary: 'X',
      tag: 'admin',
    });
    await assert.rejects(generateApiClient([twice, { ...twice, method: 'POST' }]), /operationId x\.get/);
  });

  it('writes arrays, numbers, booleans and nested objects', () => {
    assert.equal(
      schemaToTs({
        type: 'object',
        properties: {
          ids: { type: 'array', items: { type: 'string' } },
          n: { type: 'integer' },
          'a-b': { type: 'boolean' },
          any: {},
        },
        required: ['ids'],
      }),
      '{ ids: Array<string>; n?: number; "a-b"?: boolean; any?: unknown; }',
    );
  });
});
