import { notify } from './store.ts';
import { api } from '../api/api.ts';

/** DELETE /api/messages/:id/preview (the author): the card goes when message:updated arrives. */
export async function removeLinkPreview(messageId: string): Promise<void> {
  try {
    await api.call('chat.removePreview', { messageId });
  } catch (err) {
    notify(`Could not remove the preview: ${(err as Error).message}`);
  }
}
