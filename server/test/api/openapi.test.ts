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
        const res = await api.request<{ error?: { code: string } }>(
          method.toUpperCase(),
          url,
          method === 'get' || method === 'delete' ? {} : { body: {} },
        );
        assert.notEqual(res.body?.error?.code, 'IM_ERR_ROUTE_NOT_FOUND', `${method} ${path}`);
        const open = Array.isArray(op.security) && op.security.length === 0;
        assert.equal(
          res.status === 401,
          !open,
          `${method} ${path}: documented ${open ? 'open' : 'authenticated'} but answered ${res.status}`,
        );
      }
    }
  });

  it('request bodies match validation: each required field is required, unknown fields are refused', async () => {
    const { token } = await api.user();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content['application/json']?.schema;
        if (!schema) continue;
        const url = path.replace(/\{[A-Za-z]+\}/g, '0123456789abcdef01234567');
        assert.equal(schema.additionalProperties, false, `${method} ${path} allows unknown fields`);
        const unknown = await api.request(method.toUpperCase(), url, { token, body: { notAField: 1 } });
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
});
