import type { GroupLanguage, Message, PanelInfo, PublicUser } from '@im/protocol';
import { call } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import { renderAtom, renderRss } from './feeds.ts';
import type { FeedSource } from './feed-model.ts';
import { renderPanelPage } from './html-page.ts';
import { LANGUAGE_TAGS, pageText } from './page-text.ts';
import type { Render } from './public-cache.ts';
import { prepareResponse } from './prepared-response.ts';

/** Messages on a page and in a feed. */
export const PAGE_SIZE = 50;

/** Shared caches and CDNs may keep a copy briefly, and serve it while they fetch a fresh one. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=15, stale-while-revalidate=60';
/** Personal feeds: only the reader's own feed reader may keep them. */
const PRIVATE_CACHE_CONTROL = 'private, max-age=15';

/** Pages carry only inline styles and links: nothing else may load or run. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

export type PublicFormat = 'page' | 'atom' | 'rss' | 'json';

const CONTENT_TYPES: Record<PublicFormat, string> = {
  page: 'text/html; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

export const isReadableOnTheWeb = (info: PanelInfo | null): info is PanelInfo =>
  info !== null && info.groupPublic && info.webPublic;

export const panelTitle = (info: PanelInfo): string => `#${info.panelName} · ${info.groupName}`;

/** Reads what pages and feeds show, through the broker, and renders it once into prepared answers. */
export class PublicRenderer {
  readonly #broker: ServiceBroker;
  readonly #baseUrl: () => string;
  readonly #onRender: (format: PublicFormat | 'personal') => void;

  constructor(broker: ServiceBroker, baseUrl: () => string, onRender?: (format: PublicFormat | 'personal') => void) {
    this.#broker = broker;
    this.#baseUrl = baseUrl;
    this.#onRender = onRender ?? (() => undefined);
  }

  panelInfo(ids: { panelId: string } | { converseId: string }): Promise<PanelInfo | null> {
    return call(this.#broker, 'group.panelInfo', ids);
  }

  #messageList(converseId: string, before: number | undefined, limit: number) {
    return call(this.#broker, 'chat.feedMessages', { converseId, limit, ...(before !== undefined ? { before } : {}) });
  }

  /** The messages with their authors' public profiles (pages and feeds name them). */
  async #messages(converseId: string, before: number | undefined, limit: number) {
    const messages = await this.#messageList(converseId, before, limit);
    const authorIds = [...new Set(messages.map((m) => m.authorId))];
    const authors =
      authorIds.length > 0 ? await call(this.#broker, 'user.getMany', { ids: authorIds, includeInactive: true }) : {};
    return { messages, authors };
  }

  /** Seq of the converse's newest message that pages show (0 when it has none). */
  async newestSeq(converseId: string): Promise<number> {
    const [newest] = await this.#messageList(converseId, undefined, 1);
    return newest?.seq ?? 0;
  }

  /**
   * A web-public panel's page, feed or JSON page (null when it is not
   * readable on the web), with the authors it names and, for the newest
   * page, the newest seq.
   */
  async renderPanel(
    panelId: string,
    format: PublicFormat,
    before: number | undefined,
    limit = PAGE_SIZE,
  ): Promise<Render> {
    this.#onRender(format);
    const info = await this.panelInfo({ panelId });
    if (!isReadableOnTheWeb(info)) return { rendered: null };
    const newest = (messages: Message[]) => (before === undefined ? { newestSeq: messages.at(-1)?.seq ?? 0 } : {});
    if (format === 'json') {
      const messages = await this.#messageList(info.converseId, before, limit);
      const rendered = await prepareResponse(JSON.stringify(messages), CONTENT_TYPES.json, PUBLIC_CACHE_CONTROL);
      return { rendered, ...newest(messages) };
    }
    const { messages, authors } = await this.#messages(info.converseId, before, limit);
    const named = { shows: Object.keys(authors), ...newest(messages) };
    const base = this.#baseUrl();
    const pageUrl = `${base}/p/${panelId}`;
    const source = this.#source(info, pageUrl, messages, authors, {
      ...(info.groupDescription ? { description: info.groupDescription } : {}),
      selfUrl: format === 'rss' ? `${pageUrl}/feed.rss` : `${pageUrl}/feed.atom`,
    });
    if (format === 'atom')
      return {
        rendered: await prepareResponse(renderAtom(source), CONTENT_TYPES.atom, PUBLIC_CACHE_CONTROL),
        ...named,
      };
    if (format === 'rss')
      return { rendered: await prepareResponse(renderRss(source), CONTENT_TYPES.rss, PUBLIC_CACHE_CONTROL), ...named };
    const oldest = messages[0];
    const html = renderPanelPage({
      ...source,
      canonicalUrl: before !== undefined ? `${pageUrl}?before=${before}` : pageUrl,
      atomUrl: `${pageUrl}/feed.atom`,
      rssUrl: `${pageUrl}/feed.rss`,
      joinUrl: `${base}/g/${info.groupId}/${info.converseId}`,
      // A full page may have older messages; seq 1 has none below it.
      ...(messages.length === limit && oldest && oldest.seq > 1 ? { olderBefore: oldest.seq } : {}),
      paged: before !== undefined,
    });
    return { rendered: await prepareResponse(html, CONTENT_TYPES.page, PUBLIC_CACHE_CONTROL, PAGE_HEADERS), ...named };
  }

  /** The Atom feed of any converse, for a member's personal feed (the caller checked membership). */
  async renderConverseFeed(converseId: string, dmMemberIds?: string[]): Promise<Render> {
    this.#onRender('personal');
    const base = this.#baseUrl();
    const [{ messages, authors }, info, members] = await Promise.all([
      this.#messages(converseId, undefined, PAGE_SIZE),
      dmMemberIds ? null : this.panelInfo({ converseId }),
      dmMemberIds
        ? call(this.#broker, 'user.getMany', { ids: dmMemberIds, includeInactive: true })
        : ({} as Record<string, PublicUser>),
    ]);
    // A direct message has no group to speak for it: English.
    const language = info?.groupLanguage ?? 'en';
    const names = new Intl.ListFormat(LANGUAGE_TAGS[language]).format(Object.values(members).map((u) => u.nickname));
    const title = info ? panelTitle(info) : pageText(language)('directMessages', { names });
    const source = this.#source(
      { converseId, title, groupLanguage: language },
      `${base}/c/${converseId}`,
      messages,
      authors,
      {},
      // Each entry opens the app at its message (the permalink the app's "Copy link" gives).
      (m) => `${base}/c/${converseId}?message=${m.id}`,
    );
    return {
      rendered: await prepareResponse(renderAtom(source), CONTENT_TYPES.atom, PRIVATE_CACHE_CONTROL),
      // A DM's title names its members.
      shows: [...Object.keys(authors), ...(dmMemberIds ?? [])],
      newestSeq: messages.at(-1)?.seq ?? 0,
    };
  }

  #source(
    info: PanelInfo | { converseId: string; title: string; groupLanguage: GroupLanguage },
    pageUrl: string,
    messages: Message[],
    authors: Record<string, PublicUser>,
    extra: Partial<FeedSource>,
    messageUrl = (m: Message) => `${pageUrl}?before=${m.seq + 1}#m${m.seq}`,
  ): FeedSource {
    return {
      title: 'title' in info ? info.title : panelTitle(info),
      language: info.groupLanguage,
      pageUrl,
      converseId: info.converseId,
      messages,
      authors,
      messageUrl,
      ...extra,
    };
  }
}
