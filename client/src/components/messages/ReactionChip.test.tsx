import type { PublicUser } from '@im/protocol';
import { describe, expect, it } from 'vitest';
import { reactorsText } from './ReactionChip.tsx';

const user = (name: string): PublicUser => ({
  id: name.padEnd(24, '0'),
  username: name,
  nickname: name,
  createdAt: '',
});

describe('reactorsText', () => {
  it('names up to five who reacted and counts the rest', () => {
    expect(reactorsText([user('ann')], 1, '👍')).toBe('ann reacted with 👍');
    expect(reactorsText([user('ann'), user('bo')], 2, '👍')).toBe('ann and bo reacted with 👍');
    expect(reactorsText([user('ann'), user('bo'), user('cy')], 3, '🎉')).toBe('ann, bo, and cy reacted with 🎉');
    const five = ['a1', 'a2', 'a3', 'a4', 'a5'].map(user);
    expect(reactorsText(five, 6, '❤️')).toBe('a1, a2, a3, a4, a5, and 1 other reacted with ❤️');
    expect(reactorsText(five, 9, '❤️')).toBe('a1, a2, a3, a4, a5, and 4 others reacted with ❤️');
  });

  it('says someone when the names are not known (accounts since deleted)', () => {
    expect(reactorsText([], 1, '👍')).toBe('Someone reacted with 👍');
    expect(reactorsText([], 3, '👍')).toBe('3 people reacted with 👍');
  });
});
