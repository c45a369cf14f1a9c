import { t } from '../i18n/i18n.ts';
import { apiPath, createApiClient, type ParamsOf, type ResponseOf } from '@im/api-client';
import type { Message } from '@im/protocol';
import { http } from './http.ts';

export type { ParamsOf, ResponseOf };

/** The typed API: `api.call('chat.history', { converseId, before })`, through the session's HttpClient. */
export const api = createApiClient(http);

/** An endpoint's URL path with its parameters: for the raw ones (uploads, downloads) the app calls itself. */
export { apiPath };

/**
 * A send's answer as the stored message. A send answers 202 instead when it
 * ran a slash command or was scheduled: then nothing was stored.
 */
export function storedMessage(answer: ResponseOf<'chat.send'>): Message {
  if ('seq' in answer) return answer;
  throw new Error(t('composer.notStored'));
}
