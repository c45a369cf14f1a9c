import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Errors } from 'moleculer';
import { ERROR_CATALOG, ImError, toHttpError, type ErrorCode } from '../src/index.ts';

describe('error catalog', () => {
  const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

  for (const [code, { status }] of Object.entries(ERROR_CATALOG)) {
    it(`${code} is documented in docs/errors.md with status ${status}`, () => {
      const row = docs.split('\n').find((line) => line.includes(`\`${code}\``));
      assert.ok(row, `${code} missing from docs/errors.md`);
      assert.match(row, new RegExp(`\\|\\s*${status}\\s*\\|`));
    });
  }

  it('documents no code that does not exist', () => {
    const documented = [...docs.matchAll(/`(IM_ERR_[A-Z_]+)`/g)].map((m) => m[1]);
    for (const code of documented)
      assert.ok(code && code in ERROR_CATALOG, `${code} is documented but not in the catalog`);
  });

  it('maps an ImError to its status and public body', () => {
    const mapped = toHttpError(new ImError('IM_ERR_USERNAME_TAKEN'));
    assert.equal(mapped.status, 409);
    assert.deepEqual(mapped.body, { error: { code: 'IM_ERR_USERNAME_TAKEN', message: 'Username is taken' } });
    assert.equal(mapped.internal, false);
  });

  it('maps broker validation errors to IM_ERR_VALIDATION with details', () => {
    const mapped = toHttpError(
      new Errors.ValidationError('bad', 'VALIDATION_ERROR', [{ field: 'name', type: 'required' }]),
    );
    assert.equal(mapped.status, 400);
    assert.equal(mapped.body.error.code, 'IM_ERR_VALIDATION');
    assert.deepEqual(mapped.body.error.details, [{ field: 'name', type: 'required' }]);
  });

  it('never leaks internal messages: unknown errors are a plain 500', () => {
    const mapped = toHttpError(new Error('connection string mongodb://admin:pw@db failed'));
    assert.equal(mapped.status, 500);
    assert.deepEqual(mapped.body, {
      error: { code: 'IM_ERR_INTERNAL' satisfies ErrorCode, message: 'Internal error' },
    });
    assert.equal(mapped.internal, true);
  });

  it('maps an unreachable service to 503', () => {
    assert.equal(toHttpError(new Errors.ServiceNotFoundError({ action: 'user.get' })).status, 503);
  });

  it('maps a Redis command given up during an outage or a failover to 503, as it arrives from another node', () => {
    // What the broker rebuilds from the error of ioredis that crossed the transporter.
    const remote = Object.assign(new Error('Reached the max retries per request limit (which is 3).'), {
      name: 'MaxRetriesPerRequestError',
    });
    assert.deepEqual(toHttpError(remote), {
      status: 503,
      body: { error: { code: 'IM_ERR_SERVICE_UNAVAILABLE', message: 'Redis is unavailable, retry later' } },
      internal: true,
    });
  });
});
