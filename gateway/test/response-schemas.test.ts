import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  generateResponseSchemas,
  RESPONSE_SCHEMAS_FILE,
  serializeResponseSchemas,
} from '../src/api/generate-response-schemas.ts';

describe('response schemas of the API document', () => {
  const generated = generateResponseSchemas();

  it('are current with the protocol types (npm run api:schemas rewrites them)', () => {
    assert.equal(
      readFileSync(RESPONSE_SCHEMAS_FILE, 'utf8'),
      serializeResponseSchemas(generated),
      'gateway/src/api/response-schemas.json is stale: run npm run api:schemas',
    );
  });

  it('keep what the protocol says of ids, times, whole numbers and optional fields', () => {
    const c = generated.components;
    assert.deepEqual(c.Id, {
      type: 'string',
      description: 'A document id: 24 lower-case hex digits.',
      pattern: '^[0-9a-f]{24}$',
    });
    assert.equal(c.Timestamp?.format, 'date-time');
    assert.equal(c.Int?.type, 'integer');
    const message = c.Message as {
      required: string[];
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    assert.ok(message.required.includes('seq') && !message.required.includes('editedAt'));
    assert.equal(message.additionalProperties, false);
    assert.deepEqual(message.properties.seq, {
      $ref: '#/components/schemas/Int',
      description: '+1 per message within the converse, no gaps.',
    });
    assert.equal(generated.names.User, 'PublicUser');
    assert.equal(generated.names.File, 'FileInfo');
    for (const name of Object.keys(c)) assert.match(name, /^[A-Za-z0-9._-]+$/, `component name ${name}`);
  });
});
