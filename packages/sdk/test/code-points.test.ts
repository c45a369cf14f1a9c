import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServiceBroker } from 'moleculer';
import { createBroker, createLogger, parseConfig, toHttpError } from '../src/index.ts';
import { codePointLength } from '../src/validation/code-point-validator.ts';

describe('string lengths in parameters', () => {
  let broker: ServiceBroker;
  before(async () => {
    broker = createBroker({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }),
      logger: createLogger({ logLevel: 'warn', logFormat: 'json', nodeEnv: 'test' }),
    });
    broker.createService({
      name: 'lengths',
      actions: {
        check: {
          params: {
            $$strict: true,
            name: { type: 'string', min: 2, max: 3, trim: true },
            tags: { type: 'array', optional: true, items: { type: 'string', max: 1 } },
            inner: { type: 'object', optional: true, props: { note: { type: 'string', max: 2 } } },
          },
          handler: (ctx) => ctx.params,
        },
      },
    });
    await broker.start();
  });
  after(() => broker.stop());

  const outcome = (params: unknown) =>
    broker.call('lengths.check', params).then(
      () => 'ok',
      (err: unknown) =>
        (toHttpError(err).body.error.details as Array<{ field: string; type: string }>)
          .map((d) => `${d.field}:${d.type}`)
          .join(','),
    );

  it('counts code points, as JSON Schema does, so an emoji is one character', async () => {
    assert.equal(codePointLength('a😀b'), 3);
    assert.equal(await outcome({ name: '😀😀😀' }), 'ok');
    assert.equal(await outcome({ name: '😀😀😀😀' }), 'name:stringMax');
    assert.equal(await outcome({ name: '😀' }), 'name:stringMin');
  });

  it('refuses null where a field is optional but not nullable, as the API document does', async () => {
    assert.equal(await outcome({ name: 'ab', tags: null }), 'tags:notNull');
    assert.equal(await outcome({ name: 'ab', inner: { note: null } }), 'inner.note:required');
    assert.equal(await outcome({ name: null }), 'name:required');
  });

  it('checks after trimming, in arrays and nested objects, with the usual error types', async () => {
    assert.equal(await outcome({ name: '  a  ' }), 'name:stringMin');
    assert.equal(await outcome({ name: 'ab', tags: ['😀', 'x'] }), 'ok');
    assert.equal(await outcome({ name: 'ab', tags: ['😀😀'] }), 'tags[]:stringMax');
    assert.equal(await outcome({ name: 'ab', inner: { note: '👍🏽' } }), 'ok');
    assert.equal(await outcome({ name: 'ab', inner: { note: '👍🏽x' } }), 'inner.note:stringMax');
  });
});
