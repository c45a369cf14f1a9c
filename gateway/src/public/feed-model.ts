import type { GroupLanguage, Message, PublicUser } from '@im/protocol';
import type { PageText } from './page-text.ts';

/** What a public page or feed shows: a converse's messages with their authors, and how to link to them. */
export interface FeedSource {
  /** The page's or feed's title (`#panel · Group`). */
  title: string;
  description?: string;
  /** The language the page or feed is written in: the group's (English for direct messages). */
  language: GroupLanguage;
  /** Absolute URL of the human-readable page (public panel page, or the app's converse). */
  pageUrl: string;
  /** Absolute URL of this feed itself; absent for personal feeds, whose URL holds a secret. */
  selfUrl?: string;
  /** Stable id of the converse (its feed id is made from it). */
  converseId: string;
  /** In seq order. */
  messages: Message[];
  authors: Record<string, PublicUser>;
  /** Absolute URL of one message (an anchor on the page that holds it). */
  messageUrl(message: Message): string;
}

/** When an entry last changed: its edit, else its creation. */
export const updatedAt = (m: Message): string => m.editedAt ?? m.createdAt;

/** The newest change among the messages; an empty feed takes the converse id's creation time. */
export function feedUpdated(source: Pick<FeedSource, 'messages' | 'converseId'>): Date {
  let newest = 0;
  for (const m of source.messages) newest = Math.max(newest, Date.parse(updatedAt(m)));
  return new Date(newest || parseInt(source.converseId.slice(0, 8), 16) * 1000);
}

export const authorName = (authors: Record<string, PublicUser>, id: string, text: PageText): string =>
  authors[id]?.nickname ?? text('formerMember');
