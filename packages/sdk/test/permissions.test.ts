import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PERMISSIONS } from '@im/protocol';
import { requirePermission, toHttpError } from '../src/index.ts';

describe('requirePermission', () => {
  it('lets a holder through', () => {
    assert.doesNotThrow(() => requirePermission(['createInvites', 'pinMessages'], 'pinMessages'));
  });

  for (const permission of PERMISSIONS)
    it(`refuses a member without ${permission}: 403 IM_ERR_FORBIDDEN naming it`, () => {
      const others = PERMISSIONS.filter((p) => p !== permission);
      let thrown: unknown;
      try {
        requirePermission(others, permission);
      } catch (err) {
        thrown = err;
      }
      const { status, body } = toHttpError(thrown);
      assert.equal(status, 403);
      assert.equal(body.error.code, 'IM_ERR_FORBIDDEN');
      assert.match(body.error.message, new RegExp(`^You need the ${permission} permission to \\w`));
      assert.deepEqual(body.error.details, { permission });
    });
});
