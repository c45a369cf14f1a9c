import type { CustomEmoji } from '@im/protocol';
import { describe, expect, it } from 'vitest';
import { replaceClosedShortcode, shortcodeChoices, shortcodeQueryAt } from './shortcode-query.ts';
import { SHORTCODES } from './shortcodes.ts';

const ROCKETEER: CustomEmoji = { name: 'rocketeer', fileId: 'f'.repeat(24), url: '/f' };

describe(':shortcode: autocomplete', () => {
  it('sees a shortcode being typed at the start or after a space, not inside times or links', () => {
    expect(shortcodeQueryAt(':ro', 3)).toEqual({ start: 0, query: 'ro' });
    expect(shortcodeQueryAt('go :Rock', 8)).toEqual({ start: 3, query: 'rock' });
    expect(shortcodeQueryAt('go :r', 5)).toBeNull();
    expect(shortcodeQueryAt('at 10:30', 8)).toBeNull();
    expect(shortcodeQueryAt('https://x', 9)).toBeNull();
    expect(shortcodeQueryAt(':rocket: ', 9)).toBeNull();
  });

  it("offers the group's own emoji first, then standard ones, names starting with the query first", () => {
    const choices = shortcodeChoices(SHORTCODES, [ROCKETEER], 'rock');
    expect(choices[0]).toMatchObject({ code: 'rocketeer' });
    expect(choices).toContainEqual({ code: 'rocket', emoji: '🚀' });
    const starts = shortcodeChoices(SHORTCODES, [], 'up');
    const firstContaining = starts.findIndex((c) => !c.code.startsWith('up'));
    expect(starts.slice(firstContaining).every((c) => !c.code.startsWith('up'))).toBe(true);
    expect(shortcodeChoices(SHORTCODES, [], 'zzzz')).toEqual([]);
  });

  it('turns a closed :code: of a standard emoji into the emoji when a space follows', () => {
    expect(replaceClosedShortcode('go :rocket: ', 12, SHORTCODES)).toEqual({ text: 'go 🚀 ', caret: 6 });
    expect(replaceClosedShortcode(':+1: and', 5, SHORTCODES)).toEqual({ text: '👍 and', caret: 3 });
    // Unknown names and custom ones (rendered as images) stay as typed.
    expect(replaceClosedShortcode('go :party_parrot: ', 18, SHORTCODES)).toBeNull();
    expect(replaceClosedShortcode('go :rocket:', 11, SHORTCODES)).toBeNull();
  });
});
