import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { BrokenJsonError, topLevelArrayItems } from '../src/sources/discord/array-items.ts';

async function items(text: string, chunkSize: number, key = 'messages'): Promise<unknown[]> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const out: unknown[] = [];
  for await (const item of topLevelArrayItems(Readable.from(chunks), key)) out.push(item);
  return out;
}

const tricky = [
  { id: '1', content: 'braces } ] { [ in "quotes" and \\ a backslash', nested: { list: [[1], { a: [] }] } },
  { id: '2', content: 'emoji 🌱 and ünïcödé split across chunks', mentions: [] },
  { id: '3', content: '"messages": [{"id": "fake"}]' },
];
const doc = JSON.stringify(
  { guild: { id: '1', name: 'a "messages" key' }, other: [{ id: 'not me' }], messages: tricky, messageCount: 3 },
  null,
  2,
);

describe('topLevelArrayItems', () => {
  it('yields the objects of the named top-level array, whatever the chunk boundaries', async () => {
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) assert.deepEqual(await items(doc, size), tricky, `chunks of ${size}`);
  });

  it('ignores arrays of other keys and nested arrays of the same name', async () => {
    assert.deepEqual(await items(doc, 5, 'other'), [{ id: 'not me' }]);
    assert.deepEqual(await items('{"a": {"messages": [{"id": 1}]}, "messages": []}', 4), []);
  });

  it('stops at the end of the array without reading the rest', async () => {
    assert.deepEqual(await items('{"messages": [{"id": 1}]} and then no JSON at all', 3), [{ id: 1 }]);
  });

  it('yields the items before the damage, then says the text is broken', async () => {
    const cut = doc.slice(0, doc.indexOf('"id": "3"'));
    const seen: unknown[] = [];
    await assert.rejects(async () => {
      for await (const item of topLevelArrayItems(Readable.from([Buffer.from(cut)]), 'messages')) seen.push(item);
    }, BrokenJsonError);
    assert.deepEqual(seen, tricky.slice(0, 2));
    await assert.rejects(items('{"messages": [{"id": 1, "x": tru}]}', 4), BrokenJsonError);
  });
});
