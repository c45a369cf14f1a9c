import { http, path } from '../api/http.ts';
import { notify } from './store.ts';

/** DELETE /api/messages/:id/preview (the author): the card goes when message:updated arrives. */
export async function removeLinkPreview(messageId: string): Promise<void> {
  try {
    await http.delete(path`/api/messages/${messageId}/preview`);
  } catch (err) {
    notify(`Could not remove the preview: ${(err as Error).message}`);
  }
}
