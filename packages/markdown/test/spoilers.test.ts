import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMarkdown, hideSpoilers } from '../src/index.ts';

describe('spoilers in HTML', () => {
  it('renders a spoiler as a focusable span, so a page can reveal it on focus as on hover', () => {
    assert.equal(
      createMarkdown().render('a ||secret **word**|| b'),
      '<p>a <span class="spoiler" tabindex="0">secret <strong>word</strong></span> b</p>\n',
    );
  });

  it('leaves the words out where a spoiler cannot stay hidden (hideSpoilers)', () => {
    const md = createMarkdown().use(hideSpoilers);
    assert.equal(md.render('a ||secret [link](https://example.org)|| b ||two||'), '<p>a [spoiler] b [spoiler]</p>\n');
    assert.equal(md.render('no spoiler | here'), '<p>no spoiler | here</p>\n');
  });
});
