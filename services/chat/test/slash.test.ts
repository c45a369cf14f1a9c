import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSlash } from '../src/messages/slash.ts';

describe('parseSlash', () => {
  it('reads commands with their text, whatever the case of the trigger', () => {
    assert.deepEqual(parseSlash('/Deploy main --fast'), { kind: 'command', trigger: 'deploy', text: 'main --fast' });
    assert.deepEqual(parseSlash('  /poll\nline two '), { kind: 'command', trigger: 'poll', text: 'line two' });
    assert.deepEqual(parseSlash('/status'), { kind: 'command', trigger: 'status', text: '' });
  });

  it('rewrites the built-ins', () => {
    assert.deepEqual(parseSlash('/me waves'), { kind: 'builtin', content: 'waves', emote: true });
    assert.deepEqual(parseSlash('/shrug'), { kind: 'builtin', content: '¯\\\\\\_(ツ)\\_/¯', emote: false });
    assert.deepEqual(parseSlash('/shrug no idea'), {
      kind: 'builtin',
      content: 'no idea ¯\\\\\\_(ツ)\\_/¯',
      emote: false,
    });
  });

  it('leaves everything else alone', () => {
    for (const text of [
      'hello',
      'a /b',
      '/me',
      '/ spaced',
      '//double',
      '/path/to/file',
      `/${'x'.repeat(33)}`,
      '\u00a0hi',
    ])
      assert.equal(parseSlash(text), undefined, text);
    assert.deepEqual(parseSlash('\u00a0/me hi'), { kind: 'builtin', content: 'hi', emote: true });
  });
});
