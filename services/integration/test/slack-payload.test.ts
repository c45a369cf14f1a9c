import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mrkdwnToMarkdown } from '../src/slack/mrkdwn.ts';
import { slackPostToMarkdown } from '../src/slack/payload.ts';

/** Slack's incoming-webhook payloads as the Markdown a message here shows. */
describe('Slack payloads as Markdown', () => {
  it('turns links, mentions, entities, bold, strike and shortcodes into Markdown', () => {
    assert.equal(
      mrkdwnToMarkdown(
        'Deploy <https://ci.example/1|#1 [main]> by <@U123> <!here> :rocket: &lt;ok&gt; &amp; *done* ~old~',
      ),
      'Deploy [#1 \\[main\\]](https://ci.example/1) by @U123 @\u200Bhere 🚀 <ok> & **done** ~~old~~',
    );
    assert.equal(mrkdwnToMarkdown('<https://example.com>'), '<https://example.com>');
    assert.equal(mrkdwnToMarkdown('<@U1|ann> in <#C1|general>, <!channel>'), '@ann in #general, @\u200Bchannel');
    // Code is left as written; a name with no emoji stays text.
    assert.equal(mrkdwnToMarkdown('`:rocket: *x*` :no_such_emoji:'), '`:rocket: *x*` :no_such_emoji:');
    // A javascript: target is no link.
    assert.equal(mrkdwnToMarkdown('<javascript:alert(1)|click>'), 'click');
  });

  it('renders attachments as quotes: pretext, title link, text, fields, image, footer', () => {
    const markdown = slackPostToMarkdown({
      text: 'Build finished',
      attachments: [
        {
          fallback: 'Build #12 passed',
          color: 'good',
          pretext: 'From CI',
          title: 'Build #12',
          title_link: 'https://ci.example/12',
          text: 'All *green* :tada:',
          fields: [
            { title: 'Branch', value: 'main', short: true },
            { title: 'Took', value: '3 min', short: true },
          ],
          image_url: 'https://ci.example/graph.png',
          footer: 'Jenkins',
        },
        { fallback: 'only a fallback' },
      ],
    });
    assert.equal(
      markdown,
      [
        'Build finished',
        'From CI',
        [
          '> **[Build #12](https://ci.example/12)**',
          '>',
          '> All **green** 🎉',
          '>',
          '> **Branch**: main',
          '>',
          '> **Took**: 3 min',
          '>',
          '> [Build #12](https://ci.example/graph.png)',
          '>',
          '> _Jenkins_',
        ].join('\n'),
        '> only a fallback',
      ].join('\n\n'),
    );
  });

  it('renders blocks: header, section with fields, context, divider; unknown blocks are left out', () => {
    const markdown = slackPostToMarkdown({
      text: 'ignored when there are blocks',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Release *1.2*' } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'See <https://x.example|notes>' },
          fields: [{ type: 'mrkdwn', text: '*Owner*\nann' }],
        },
        { type: 'divider' },
        {
          type: 'context',
          elements: [
            { type: 'mrkdwn', text: 'by bot' },
            { type: 'image', image_url: 'https://x.example/i.png', alt_text: 'i' },
          ],
        },
        { type: 'actions', elements: [] },
      ],
    });
    assert.equal(
      markdown,
      ['**Release \\*1.2\\***', 'See [notes](https://x.example)', '**Owner**\nann', '---', '_by bot_'].join('\n\n'),
    );
    assert.equal(slackPostToMarkdown({ attachments: [{}], blocks: [{ type: 'divider' }] }), '---');
    assert.equal(slackPostToMarkdown({ attachments: [{}] }), '');
  });
});
