import type { Message } from '@im/protocol';
import { accountStore } from '../../state/account-state.ts';

interface Editing {
  /** The message being edited in place (one at a time), if any. */
  id: string | null;
  /** Where focus goes when the edit ends: the composer an Up-arrow came from. */
  returnTo: HTMLElement | null;
}

/** Which message is being edited: its Edit button and the composer's Up-arrow both start it. */
export const useEditing = accountStore<Editing>('message being edited', () => ({ id: null, returnTo: null }));

export function startEditing(id: string, returnTo: HTMLElement | null = null): void {
  useEditing.setState({ id, returnTo });
}

/** Ends the edit; focus goes back to where it started, else to `fallback` (the edited message). */
export function stopEditing(fallback?: HTMLElement | null): void {
  const { returnTo } = useEditing.getState();
  useEditing.setState({ id: null, returnTo: null });
  const target = returnTo?.isConnected ? returnTo : fallback;
  // After the edit box is gone (focus would otherwise fall to the page).
  requestAnimationFrame(() => target?.focus());
}

/**
 * The message Up-arrow in an empty composer edits: my newest one that can be
 * edited among those that composer's list shows (the timeline, or one thread's replies).
 */
export function lastEditable(messages: readonly Message[], myId: string): Message | undefined {
  return messages.findLast((m) => m.authorId === myId && !m.deleted && !m.poll && !m.call);
}
