import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_ENDPOINTS } from '@im/gateway/endpoints';
import { apiSuite } from '../support/api-suite.ts';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: {
          content: {
            'application/json': {
              schema: { required?: string[]; properties: Record<string, unknown>; additionalProperties: boolean };
            };
          };
        };
        security?: unknown[];
      }
    >
  >;
};

describe('/api/openapi.json', () => {
  const { api } = apiSuite(import.meta.url);
  let doc: Doc;
  before(async () => {
    const res = await fetch(`${api.base}/api/openapi.json`);
    assert.equal(res.status, 200);
    doc = (await res.json()) as Doc;
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('documents exactly the mounted routes', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const mounted = API_ENDPOINTS.map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`).sort();
    assert.deepEqual(documented, mounted);
  });

  it('every documented route answers (never "no such route"), and open routes are marked open', async () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const url = path.replace(/\{[A-Za-z]+\}/g, '0123456789abcdef01234567');
        const res = await fetch(api.base + url, {
          method: method.toUpperCase(),
          ...(method === 'get' || method === 'delete'
            ? {}
            : { body: '{}', headers: { 'content-type': 'application/json' } }),
        });
        // A page's 404 is a page; every other answer here is the catalog's JSON.
        const body = res.headers.get('content-type')?.startsWith('application/json')
          ? ((await res.json()) as { error?: { code: string } })
          : (await res.text(), undefined);
        assert.notEqual(body?.error?.code, 'IM_ERR_ROUTE_NOT_FOUND', `${method} ${path}`);
        const open = Array.isArray(op.security) && op.security.length === 0;
        assert.equal(
          res.status === 401,
          !open,
          `${method} ${path}: documented ${open ? 'open' : 'authenticated'} but answered ${res.status}`,
        );
      }
    }
  });

  /** Bodies written for another product: Slack's webhook payloads carry fields this one ignores (channel, icon_emoji, ...). */
  const IGNORES_UNKNOWN_FIELDS = new Set(['post /hooks/{hookId}/{secret}']);

  it('request bodies match validation: each required field is required, unknown fields are refused', async () => {
    const { token } = await api.user();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content['application/json']?.schema;
        if (!schema) continue;
        const url = path.replace(/\{[A-Za-z]+\}/g, '0123456789abcdef01234567');
        const unknown = await api.request(method.toUpperCase(), url, { token, body: { notAField: 1 } });
        if (IGNORES_UNKNOWN_FIELDS.has(`${method} ${path}`)) {
          assert.notEqual(schema.additionalProperties, false, `${method} ${path} refuses unknown fields`);
          // No such hook: the documented 404, not a 400 about the extra field.
          assert.equal(unknown.status, 404, `${method} ${path} refused an unknown field`);
          continue;
        }
        assert.equal(schema.additionalProperties, false, `${method} ${path} allows unknown fields`);
        assert.equal(unknown.status, 400, `${method} ${path} accepted an unknown field`);
        for (const field of schema.required ?? []) {
          const res = await api.request<{ error: { details?: Array<{ field: string; type: string }> } }>(
            method.toUpperCase(),
            url,
            { token, body: {} },
          );
          assert.equal(res.status, 400, `${method} ${path} without ${field}`);
          assert.ok(
            res.body.error.details?.some((d) => d.field === field && d.type === 'required'),
            `${method} ${path}: ${field} documented as required but not enforced`,
          );
        }
      }
    }
  });

  it('declares what a schema can say: exclusive query parameters, URLs, multipart parts', () => {
    type Op = {
      parameters?: Array<{ name: string; in: string; schema: { oneOf?: unknown[] } }>;
      requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
    };
    const op = (path: string, method: string) => (doc.paths[path] as unknown as Record<string, Op>)[method]!;
    // History: before and after, or around alone.
    const history = op('/api/converses/{converseId}/messages', 'get').parameters!;
    assert.ok(!history.some((p) => ['before', 'after', 'around'].includes(p.name)));
    const branches = history.find((p) => p.name === 'page')!.schema.oneOf as Array<{
      properties: Record<string, unknown>;
      additionalProperties: boolean;
      minProperties?: number;
    }>;
    assert.deepEqual(
      branches.map((b) => [Object.keys(b.properties), b.additionalProperties, b.minProperties]),
      [
        [['before', 'after'], false, undefined],
        [['around'], false, 1],
      ],
    );
    // URLs the server checks as URLs.
    const json = (path: string) => op(path, 'post').requestBody!.content['application/json']!.schema;
    const property = (path: string, name: string) =>
      (json(path).properties as Record<string, { format?: string }>)[name];
    assert.equal(property('/api/groups/{groupId}/commands', 'url')?.format, 'uri');
    assert.equal(property('/api/groups/{groupId}/webhooks/outgoing', 'url')?.format, 'uri');
    assert.equal(property('/api/push/subscriptions', 'endpoint')?.format, 'uri');
    // Multipart forms take only their declared parts; image forms say which images.
    for (const [path, method] of [
      ['/api/files', 'post'],
      ['/api/groups/{groupId}/emoji', 'post'],
      ['/api/groups/{groupId}/icon', 'put'],
    ] as const) {
      const form = op(path, method).requestBody!.content['multipart/form-data']!;
      assert.equal(form.schema.additionalProperties, false, path);
    }
    const emoji = op('/api/groups/{groupId}/emoji', 'post').requestBody!.content['multipart/form-data'] as {
      encoding?: { file?: { contentType: string } };
    };
    assert.match(emoji.encoding?.file?.contentType ?? '', /image\/png/);
  });

  it('lists the raw endpoints (uploads, downloads, pages, feeds) from the table, with their media types', () => {
    const raw = API_ENDPOINTS.filter((e) => e.raw).map((e) => `${e.method} ${e.path}`);
    for (const route of [
      'POST /api/files',
      'GET /api/files/:fileId',
      'GET /api/files/:fileId/thumbnail',
      'POST /api/groups/:groupId/emoji',
      'PUT /api/groups/:groupId/icon',
      'GET /p/:panelId',
      'GET /p/:panelId/feed.atom',
      'GET /p/:panelId/feed.rss',
      'GET /api/public/panels/:panelId/messages',
      'GET /feeds/:token/converses/:converseId.atom',
    ])
      assert.ok(raw.includes(route), route);
    type Responses = Record<string, { content?: Record<string, unknown> }>;
    const answers = (path: string) => (doc.paths[path]!['get'] as unknown as { responses: Responses }).responses;
    assert.deepEqual(Object.keys(answers('/p/{panelId}')['200']!.content!), ['text/html']);
    assert.ok('text/html' in answers('/p/{panelId}')['4XX']!.content!);
    assert.deepEqual(Object.keys(answers('/p/{panelId}/feed.rss')['200']!.content!), ['application/rss+xml']);
    assert.deepEqual(Object.keys(answers('/feeds/{token}/converses/{converseId}.atom')['200']!.content!), [
      'application/atom+xml',
    ]);
  });
});
