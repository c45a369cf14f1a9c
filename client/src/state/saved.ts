import type { Message, SavedMessage } from '@im/protocol';
import { describeError } from '../api/errors.ts';
import { accountStore } from './account-state.ts';
import { notify } from './store.ts';
import { api } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';

/** My saved messages as the app shows them: the list (newest saved first) and which ids are in it. */
export interface SavedState {
  items: SavedMessage[] | null;
  nextCursor: string | null;
  /** Saved here or listed: what "Save" / "Remove from saved" offers. */
  ids: Record<string, true>;
}

export const useSaved = accountStore<SavedState>('saved messages', () => ({ items: null, nextCursor: null, ids: {} }));

/** The first page (again), or the next one with `more`. */
export async function loadSaved(more = false): Promise<void> {
  const cursor = more ? useSaved.getState().nextCursor : null;
  if (more && !cursor) return;
  try {
    const page = await api.call('chat.saved', cursor ? { cursor } : {});
    useSaved.setState((s) => {
      const items = more ? [...(s.items ?? []), ...page.items] : page.items;
      return {
        items,
        nextCursor: page.nextCursor,
        ids: { ...s.ids, ...Object.fromEntries(page.items.map((m) => [m.id, true as const])) },
      };
    });
  } catch (err) {
    notify(t('notices.loadSaved', { reason: describeError(err) }));
  }
}

/** Saves a message, or takes it out of my saved ones. */
export async function toggleSaved(message: Message): Promise<void> {
  const saved = useSaved.getState().ids[message.id] === true;
  try {
    if (saved) await api.call('chat.unsave', { messageId: message.id });
    else await api.call('chat.save', { messageId: message.id });
  } catch (err) {
    notify(
      saved ? t('notices.unsave', { reason: describeError(err) }) : t('notices.save', { reason: describeError(err) }),
    );
    return;
  }
  useSaved.setState((s) => {
    const { [message.id]: _gone, ...ids } = s.ids;
    return saved
      ? { ids, items: s.items?.filter((m) => m.id !== message.id) ?? null }
      : {
          ids: { ...ids, [message.id]: true },
          items: s.items ? [{ ...message, savedAt: new Date().toISOString() }, ...s.items] : null,
        };
  });
  if (!saved) notify(t('notices.saved'), 'info');
}
