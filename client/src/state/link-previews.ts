import { notify } from './store.ts';
import { api } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';

/** DELETE /api/messages/:id/preview (the author): the card goes when message:updated arrives. */
export async function removeLinkPreview(messageId: string): Promise<void> {
  try {
    await api.call('chat.removePreview', { messageId });
  } catch (err) {
    notify(t('notices.removePreview', { reason: (err as Error).message }));
  }
}
