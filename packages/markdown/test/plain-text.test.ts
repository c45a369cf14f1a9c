import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plainText } from '../src/index.ts';

describe('plainText', () => {
  it('gives the words Markdown shows, on one line, without its marks', () => {
    assert.equal(plainText('**bold**, _it_ and [a link](https://example.org)', 100), 'bold, it and a link');
    assert.equal(plainText('> quoted\n\n- one\n- two `code`', 100), 'quoted one two code');
    assert.equal(plainText('<b>raw</b>', 100), '<b>raw</b>');
  });

  it('keeps a spoiler hidden', () => {
    assert.equal(plainText('the end: ||the butler **did** it|| — wow', 100), 'the end: [spoiler] — wow');
  });

  it('cuts at `max` characters with an ellipsis, counting code points', () => {
    assert.equal(plainText('😀😀😀😀😀', 3), '😀😀…');
    assert.equal(plainText('short', 5), 'short');
  });
});
