import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseEncoding, prepareResponse } from '../../src/public/prepared-response.ts';

describe('prepared responses', () => {
  it('chooses brotli, then gzip, honouring q=0 and the wildcard', () => {
    assert.equal(chooseEncoding(undefined), 'identity');
    assert.equal(chooseEncoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(chooseEncoding('gzip'), 'gzip');
    assert.equal(chooseEncoding('br;q=0, gzip;q=0.5'), 'gzip');
    assert.equal(chooseEncoding('BR;Q=0, GZIP;Q=0'), 'identity');
    assert.equal(chooseEncoding('*'), 'br');
    assert.equal(chooseEncoding('*;q=0, gzip'), 'gzip');
    assert.equal(chooseEncoding('identity'), 'identity');
  });

  it('prepares every encoding of the same bytes, with one ETag and exact lengths', async () => {
    const text = 'a feed entry with some text\n'.repeat(200);
    const prepared = await prepareResponse(text, 'application/atom+xml', 'public, max-age=15');
    assert.equal(brotliDecompressSync(prepared.bodies.br).toString(), text);
    assert.equal(gunzipSync(prepared.bodies.gzip).toString(), text);
    assert.equal(prepared.bodies.identity.toString(), text);
    for (const encoding of ['br', 'gzip', 'identity'] as const) {
      assert.equal(prepared.headers[encoding]!['content-length'], String(prepared.bodies[encoding].length));
      assert.equal(prepared.headers[encoding]!.etag, prepared.etag);
    }
    assert.equal(prepared.headers.br['content-encoding'], 'br');
    assert.equal(prepared.headers.identity['content-encoding'], undefined);
    assert.notEqual((await prepareResponse(`${text}!`, 'text/plain', 'x')).etag, prepared.etag);
  });

  it('sends small bodies as they are whatever the client accepts', async () => {
    const prepared = await prepareResponse('tiny', 'text/plain', 'public');
    assert.equal(prepared.headers.br['content-encoding'], undefined);
    assert.equal(prepared.bodies.br.toString(), 'tiny');
  });
});
