import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mentionToken as m } from '../src/source/mention-token.ts';
import { convertMentions } from '../src/sources/mattermost/mentions.ts';

const people = new Set(['alice', 'bob.smith', 'carol_']);
const convert = (text: string) => convertMentions(text, (key) => people.has(key));

describe('Mattermost mentions', () => {
  it('turns mentions of listed people into tokens, whatever their case', () => {
    assert.equal(convert('hi @alice and @Bob.Smith'), `hi ${m('alice')} and ${m('bob.smith')}`);
    assert.equal(convert('(@alice)'), `(${m('alice')})`);
  });

  it('reads a trailing dot, dash or underscore as punctuation only when the name with it is nobody', () => {
    assert.equal(convert('thanks @alice.'), `thanks ${m('alice')}.`);
    assert.equal(convert('ask @carol_'), `ask ${m('carol_')}`);
    assert.equal(convert('ask @carol__'), `ask ${m('carol_')}_`);
    assert.equal(convert('see @bob.smith...'), `see ${m('bob.smith')}...`);
  });

  it('turns @channel and @all into @all and keeps @here', () => {
    assert.equal(convert('@channel @all @here @HERE!'), '@all @all @here @here!');
  });

  it('leaves addresses, unknown names and code alone', () => {
    for (const text of [
      'mail alice@example.com',
      'https://example.com/@alice',
      '@nobody',
      'say `@alice`',
      '```\n@alice\n```',
      '@channels',
    ]) {
      assert.equal(convert(text), text);
    }
    assert.equal(convert('`@alice` but @alice'), `\`@alice\` but ${m('alice')}`);
  });
});
