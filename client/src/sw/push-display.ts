// What a Web Push notification shows, and where a click on it leads: plain
// functions of the push payload, in the browser's language (the worker cannot
// read the language chosen in Settings, which lives in the page's storage).
import { pickLanguage, type Language } from '../i18n/languages.ts';
import { push as de } from '../i18n/locales/de/push.ts';
import { push as en } from '../i18n/locales/en/push.ts';
import { push as zh } from '../i18n/locales/zh/push.ts';

const CATALOGS: Record<Language, typeof en> = { en, de, zh };

/** The kinds of push the server sends (services/push), each with its own title. */
const TITLE_KEYS = {
  dm: 'push.title.dm',
  mention: 'push.title.mention',
  reply: 'push.title.reply',
  reminder: 'push.title.reminder',
  message: 'push.title.message',
} as const;

interface PushPayload {
  type?: unknown;
  preview?: unknown;
  converseId?: unknown;
  seq?: unknown;
}

export function notificationOf(
  payload: unknown,
  languages: readonly string[],
): { title: string; options: NotificationOptions } {
  const p = (payload && typeof payload === 'object' ? payload : {}) as PushPayload;
  const catalog = CATALOGS[pickLanguage(languages)];
  const key = typeof p.type === 'string' && p.type in TITLE_KEYS ? TITLE_KEYS[p.type as keyof typeof TITLE_KEYS] : null;
  const title = catalog[key ?? TITLE_KEYS.message];
  const converseId = typeof p.converseId === 'string' ? p.converseId : undefined;
  return {
    title,
    options: {
      body: typeof p.preview === 'string' ? p.preview : '',
      // One notification per message: the same push delivered twice replaces itself.
      tag: converseId && p.seq !== undefined ? `${converseId}:${String(p.seq)}` : undefined,
      data: { converseId },
    },
  };
}

/** The converse a clicked notification names, and the address that opens it in a new window. */
export function openTargetOf(data: unknown): { converseId?: string; url: string } {
  const converseId =
    data && typeof data === 'object' && typeof (data as { converseId?: unknown }).converseId === 'string'
      ? (data as { converseId: string }).converseId
      : undefined;
  return { converseId, url: converseId ? `/c/${encodeURIComponent(converseId)}` : '/' };
}
