import { accountMap } from './account-state.ts';

/**
 * Unsent text per composer (a converse's, or a thread's), kept while the app
 * moves between them. It is the account's: the next one signing in here
 * starts with empty composers.
 */
const drafts = accountMap<string, string>('drafts');

/** The key of a thread's composer: a thread's draft is not its converse's. */
export const threadDraftKey = (rootId: string): string => `thread:${rootId}`;

export function draftOf(key: string): string | undefined {
  return drafts.get(key);
}

export function saveDraft(key: string, text: string): void {
  if (text) drafts.set(key, text);
  else drafts.delete(key);
}
