import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mentionToken } from '../src/source/mention-token.ts';
import { mrkdwnToMarkdown } from '../src/sources/slack/mrkdwn.ts';

const channels = new Map([['C1', 'general']]);
const md = (text: string) => mrkdwnToMarkdown(text, { channelName: (id) => channels.get(id) });

describe('Slack mrkdwn to Markdown', () => {
  it('turns people, channels and broadcasts into mentions', () => {
    assert.equal(md('hi <@U123> and <@W456|bob>'), `hi ${mentionToken('U123')} and ${mentionToken('W456')}`);
    assert.equal(md('see <#C1|general>, <#C1> and <#C9>'), 'see #general, #general and #C9');
    assert.equal(md('<!channel> <!everyone> <!here> <!channel|@channel>'), '@all @all @here @all');
    assert.equal(md('ping <!subteam^S1|@devs>'), 'ping @devs');
    assert.equal(md('due <!date^1392734382^{date}|Feb 18, 2014>'), 'due Feb 18, 2014');
  });

  it('writes links as Markdown links, or bare when they have no label', () => {
    assert.equal(md('<https://x.test/a?b=1&amp;c=2|the [doc]>'), '[the \\[doc\\]](https://x.test/a?b=1&c=2)');
    assert.equal(md('<https://x.test>'), 'https://x.test');
    assert.equal(md('<https://x.test|https://x.test>'), 'https://x.test');
    assert.equal(md('<mailto:a@b.test|a@b.test>'), '[a@b.test](mailto:a@b.test)');
    assert.equal(md('<https://x.test/a_(b)|wiki>'), '[wiki](<https://x.test/a_(b)>)');
  });

  it('doubles bold and strike marks and makes underscores italics, at word edges only', () => {
    assert.equal(md('*bold* _italic_ ~gone~'), '**bold** *italic* ~~gone~~');
    assert.equal(md('*bold with _italic_ inside*'), '**bold with *italic* inside**');
    assert.equal(md('(*a*), "_b_"!'), '(**a**), "*b*"!');
    assert.equal(md('snake_case_name 2*3*4 a * b * c'), 'snake_case_name 2*3*4 a * b * c');
    assert.equal(md('*not\nbold*'), '*not\nbold*');
    assert.equal(md('*<https://x.test|link>*'), '**[link](https://x.test)**');
  });

  it('leaves code alone but for its entities, with block fences on lines of their own', () => {
    assert.equal(md('run `a *b* &lt;c&gt;` now'), 'run `a *b* <c>` now');
    assert.equal(md('```one line *x*```'), '```one line *x*```');
    assert.equal(md('look:```a\n_b_```after'), 'look:\n```\na\n_b_\n```\nafter');
    assert.equal(md('```\nalready\n```'), '```\nalready\n```');
  });

  it('unescapes what people typed and keeps emoji shortcodes as text', () => {
    assert.equal(md('&lt;b&gt; &amp;amp; :rocket: &gt; quoted'), '<b> &amp; :rocket: > quoted');
  });

  it('never lets text pose as a mention or a placeholder', () => {
    assert.equal(md('a\u{E000}U1\u{E001} b\u{E002}0\u{E003}'), 'aU1 b0');
  });
});
