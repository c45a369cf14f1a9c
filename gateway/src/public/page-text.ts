// What public pages and feeds say themselves (not what members wrote), in
// the group's language: ICU messages, so that dates and plurals come from
// Intl rather than from string building.
import type { GroupLanguage } from '@im/protocol';
import { IntlMessageFormat } from 'intl-messageformat';

const en = {
  join: 'Join the conversation',
  older: 'Older messages',
  newer: 'Newest messages',
  empty: 'No messages yet.',
  follow: 'Follow this panel:',
  atom: 'Atom feed',
  rss: 'RSS feed',
  edited: '(edited)',
  noText: '(no text)',
  formerMember: 'Former member',
  readableByAnyone: 'Messages of {title}, readable by anyone.',
  directMessages: 'Direct messages: {names}',
  posted: '{at, date, medium} {at, time, short} UTC',
};

type PageTexts = Record<keyof typeof en, string>;

const de: PageTexts = {
  join: 'An der Unterhaltung teilnehmen',
  older: 'Ältere Nachrichten',
  newer: 'Neueste Nachrichten',
  empty: 'Noch keine Nachrichten.',
  follow: 'Diesem Kanal folgen:',
  atom: 'Atom-Feed',
  rss: 'RSS-Feed',
  edited: '(bearbeitet)',
  noText: '(kein Text)',
  formerMember: 'Ehemaliges Mitglied',
  readableByAnyone: 'Nachrichten aus {title}, für alle lesbar.',
  directMessages: 'Direktnachrichten: {names}',
  posted: '{at, date, medium} {at, time, short} UTC',
};

const zh: PageTexts = {
  join: '加入对话',
  older: '更早的消息',
  newer: '最新消息',
  empty: '还没有消息。',
  follow: '关注此频道：',
  atom: 'Atom 订阅源',
  rss: 'RSS 订阅源',
  edited: '（已编辑）',
  noText: '（无文字）',
  formerMember: '前成员',
  readableByAnyone: '{title} 的消息，任何人都可阅读。',
  directMessages: '私信：{names}',
  posted: '{at, date, medium} {at, time, short} UTC',
};

const CATALOGS: Record<GroupLanguage, PageTexts> = { en, de, zh };

/** The `lang` / `xml:lang` / RSS `<language>` value of each language (Chinese with its script). */
export const LANGUAGE_TAGS: Record<GroupLanguage, string> = { en: 'en', de: 'de', zh: 'zh-Hans' };

export type PageText = (key: keyof PageTexts, values?: Record<string, string | number | Date>) => string;

const formats = new Map<string, IntlMessageFormat>();

/** The page texts of one language; dates in UTC, as the pages say. */
export function pageText(language: GroupLanguage = 'en'): PageText {
  return (key, values) => {
    const id = `${language}:${key}`;
    let format = formats.get(id);
    if (!format) {
      format = new IntlMessageFormat(CATALOGS[language][key], LANGUAGE_TAGS[language], {
        date: { medium: { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' } },
        time: { short: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' } },
      });
      formats.set(id, format);
    }
    return String(format.format(values));
  };
}
