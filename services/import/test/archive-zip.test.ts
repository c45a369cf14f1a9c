import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ArchiveZip } from '../src/export/archive-zip.ts';
import { openExportFiles, readJson } from '../src/source/export-files.ts';

describe("the export's zip writer", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-zip-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes JSON arrays item by item (many past its buffers), JSON files and streamed files', async () => {
    const file = join(dir, 'ok.zip');
    const zip = new ArchiveZip(file);
    const big = zip.jsonArray('big.json');
    for (let i = 0; i < 20_000; i += 1) await big.write({ i, text: 'x'.repeat(50) });
    assert.equal(await big.end(), 20_000);
    assert.equal(await zip.jsonArray('empty.json').end(), 0);
    zip.addJson('one.json', { a: 1 });
    zip.addLazy('bytes.bin', 3, async () => Readable.from([Buffer.from('abc')]));
    await zip.finish();
    const files = await openExportFiles(file);
    try {
      const items = await readJson<Array<{ i: number }>>(files, 'big.json');
      assert.equal(items?.length, 20_000);
      assert.equal(items.at(-1)?.i, 19_999);
      assert.deepEqual(await readJson(files, 'empty.json'), []);
      assert.deepEqual(await readJson(files, 'one.json'), { a: 1 });
      assert.deepEqual(files.names, ['big.json', 'bytes.bin', 'empty.json', 'one.json']);
    } finally {
      await files.close();
    }
  });

  it('fails instead of waiting for ever: a file that cannot be opened, an array left open and given up', async () => {
    const broken = new ArchiveZip(join(dir, 'broken.zip'));
    broken.addLazy('gone.bin', 3, () => Promise.reject(new Error('the object is gone')));
    await assert.rejects(broken.finish(), /the object is gone/);

    const abandoned = new ArchiveZip(join(dir, 'abandoned.zip'));
    const open = abandoned.jsonArray('half.json');
    await open.write({ half: true });
    await abandoned.abort();
  });
});
