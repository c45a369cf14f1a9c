import { forgetOnSignOut } from '../../state/account-state.ts';

/** Where the picker remembers what this browser picked last. */
const KEY = 'im.emoji.recent';

// Picks are the account's (its groups' custom emoji among them): the next account here starts afresh.
forgetOnSignOut('recent emoji', () => {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: nothing was kept.
  }
});
/** How many recently used emoji the picker shows. */
export const RECENT_MAX = 24;

export function recentEmoji(): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(saved) ? saved.filter((e): e is string => typeof e === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** Moves `emoji` to the front of the recently used list. */
export function rememberEmoji(emoji: string): void {
  const next = [emoji, ...recentEmoji().filter((e) => e !== emoji)].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the list just is not kept.
  }
}
