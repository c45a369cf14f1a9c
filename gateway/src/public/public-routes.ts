import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConverseAccess } from '@im/protocol';
import { call, ImError, invalid } from '@im/sdk';
import { LRUCache } from 'lru-cache';
import type { ServiceBroker } from 'moleculer';
import type { RawHandlers } from '../api/raw-handlers.ts';
import { PublicCache, type Render, type Rendered } from './public-cache.ts';
import { PAGE_SIZE, PublicRenderer, type PublicFormat } from './public-renders.ts';
import { sendPrepared } from './prepared-response.ts';

const ID = /^[0-9a-f]{24}$/;
const SEQ = /^[1-9][0-9]{0,14}$/;
const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>Not found</h1><p>This page does not exist, or it is not public.</p></body></html>
`;

const notFound = () => new ImError('IM_ERR_NOT_FOUND');

/** The kept variant of a converse that is a member's personal feed. */
const PERSONAL_FEED = 'personal-atom';

const variantOf = (format: PublicFormat, before: number | undefined, limit: number | undefined) =>
  `${format}:${before ?? ''}:${limit ?? ''}`;

/**
 * The page `?before=` asks for: above the newest message it is the newest
 * page (the same messages), so every such value shares the newest's render.
 */
const pageBefore = (asked: number | undefined, newestSeq: number | undefined): number | undefined =>
  asked !== undefined && newestSeq !== undefined && asked > newestSeq ? undefined : asked;

/** `?before=&limit=` of a public read: only those two, as positive whole numbers. */
function pageQuery(url: string, allowLimit: boolean): { before?: number; limit?: number } {
  const at = url.indexOf('?');
  if (at < 0) return {};
  const query = new URLSearchParams(url.slice(at + 1));
  const out: { before?: number; limit?: number } = {};
  for (const [key, value] of query) {
    if (key === 'before' && SEQ.test(value)) out.before = Number(value);
    else if (key === 'limit' && allowLimit && SEQ.test(value) && Number(value) <= 100) out.limit = Number(value);
    else
      throw invalid(`Unknown or invalid query parameter '${key}'`, {
        fields: [{ field: key, message: allowLimit ? 'before: a seq; limit: 1 to 100' : 'before: a seq' }],
      });
  }
  return out;
}

export interface PublicRoutesOptions {
  /** The address pages and feeds link to (PUBLIC_URL, else where this gateway listens). */
  baseUrl: () => string;
  /**
   * With routing by room, makes this gateway hear the converses it keeps
   * renders of: `beforeRender` resolves once their changes reach it (a
   * render then reads what came before, and a change after drops it),
   * `onDrop` says when they are no longer kept.
   */
  interest?: { beforeRender(converseId: string): Promise<void>; onDrop(converseId: string): void } | undefined;
  /**
   * Counts a render (an answer not kept in memory) against the client's
   * limit: throws IM_ERR_RATE_LIMITED past it.
   */
  countRender?: (req: IncomingMessage) => Promise<void>;
  /** Told of every render made (the metrics count them). */
  onRender?: (format: PublicFormat | 'personal') => void;
}

/**
 * Web-public panels (`/p/:panelId`, its Atom and RSS feeds, and the JSON
 * read) and personal feeds (`/feeds/:token/converses/:id.atom`), answered
 * from renders kept in memory: a hit is a lookup and a write.
 */
export class PublicRoutes {
  readonly cache: PublicCache;
  readonly #renderer: PublicRenderer;
  readonly #beforeRender: ((converseId: string) => Promise<void>) | undefined;
  readonly #countRender: ((req: IncomingMessage) => Promise<void>) | undefined;
  readonly #broker: ServiceBroker;
  /** A panel's converse never changes: known ones skip the group lookup before the cache. */
  readonly #converseOfPanel = new LRUCache<string, string>({ max: 100_000 });
  /** Personal feed tokens already checked, by token: their owner. */
  readonly #tokenOwners = new LRUCache<string, string>({ max: 10_000 });
  /** Counts `forgetTokensOf` calls: a lookup that one overtook is not remembered (it may have read a revoked token). */
  #tokenRevocations = 0;

  constructor(broker: ServiceBroker, options: PublicRoutesOptions) {
    this.#broker = broker;
    this.#renderer = new PublicRenderer(broker, options.baseUrl, options.onRender);
    this.cache = new PublicCache(undefined, options.interest?.onDrop);
    this.#beforeRender = options.interest?.beforeRender;
    this.#countRender = options.countRender;
  }

  /** Counts the request against its client's renders the first time it is called, never again. */
  #onceFor(req: IncomingMessage): () => Promise<void> {
    let counted = false;
    return async () => {
      if (!counted) await this.#countRender?.(req);
      counted = true;
    };
  }

  /** `render` once this gateway hears the converse's changes (at once without routing by room). */
  #rendered<T>(converseId: string, render: () => Promise<T>): () => Promise<T> {
    const before = this.#beforeRender;
    return before ? () => before(converseId).then(render) : render;
  }

  /** The handlers of the public endpoints in the table (gateway/src/endpoints.ts), by operationId. */
  handlers(): RawHandlers {
    const panel = (format: PublicFormat) => (req: IncomingMessage, res: ServerResponse, params: Params) =>
      this.#panel(req, res, params.panelId ?? '', format);
    return {
      'public.page': panel('page'),
      'public.atom': panel('atom'),
      'public.rss': panel('rss'),
      'public.panelMessages': panel('json'),
      'public.personalFeed': (req, res, params) =>
        this.#personalFeed(req, res, params.token ?? '', params.converseId ?? ''),
    };
  }

  /** A user's new feed token replaces the old: forget whose the old one was. */
  forgetTokensOf(userId: string): void {
    this.#tokenRevocations += 1;
    for (const [token, owner] of this.#tokenOwners.entries()) if (owner === userId) this.#tokenOwners.delete(token);
  }

  #panel(req: IncomingMessage, res: ServerResponse, panelId: string, format: PublicFormat): void | Promise<void> {
    const { before: asked, limit } = pageQuery(req.url ?? '', format === 'json');
    if (!ID.test(panelId)) return this.#missing(res, format);
    const converseId = this.#converseOfPanel.get(panelId);
    if (converseId) {
      const newestSeq = this.cache.newestSeq(converseId);
      if (asked === undefined || newestSeq !== undefined) {
        const kept = this.cache.peek(converseId, variantOf(format, pageBefore(asked, newestSeq), limit));
        if (kept !== undefined) return this.#answer(req, res, kept, format);
      }
    }
    return this.#panelMiss(req, res, panelId, format, asked, limit);
  }

  /**
   * Not kept in memory: each step that would read or render counts against
   * the client's renders (once per request), so distinct `?before=`s cannot
   * keep the gateway rendering; a render already under way is shared.
   */
  async #panelMiss(
    req: IncomingMessage,
    res: ServerResponse,
    panelId: string,
    format: PublicFormat,
    asked: number | undefined,
    limit: number | undefined,
  ): Promise<void> {
    const count = this.#onceFor(req);
    let converseId = this.#converseOfPanel.get(panelId);
    if (!converseId) {
      await count();
      const info = await this.#renderer.panelInfo({ panelId });
      if (!info) return this.#missing(res, format);
      converseId = info.converseId;
      this.#converseOfPanel.set(panelId, converseId);
    }
    const known = converseId;
    let newestSeq = this.cache.newestSeq(known);
    if (asked !== undefined && newestSeq === undefined) {
      await count();
      newestSeq = await this.cache.learnNewestSeq(
        known,
        this.#rendered(known, () => this.#renderer.newestSeq(known)),
      );
    }
    const before = pageBefore(asked, newestSeq);
    const variant = variantOf(format, before, limit);
    if (!this.cache.holds(known, variant)) await count();
    const rendered = await this.cache.get(
      known,
      variant,
      this.#rendered(known, () => this.#renderer.renderPanel(panelId, format, before, limit ?? PAGE_SIZE)),
    );
    this.#answer(req, res, rendered, format);
  }

  async #personalFeed(req: IncomingMessage, res: ServerResponse, token: string, converseId: string): Promise<void> {
    if (!FEED_TOKEN.test(token) || !ID.test(converseId)) throw notFound();
    const count = this.#onceFor(req);
    const userId = await this.#tokenOwner(token, count);
    // Counted before the access check: made-up converse ids with a good token are no free reads either.
    if (!this.cache.holds(converseId, PERSONAL_FEED)) await count();
    const access: ConverseAccess | null = userId
      ? await call(this.#broker, 'chat.access', { converseId, userId })
      : null;
    if (!access) throw notFound();
    const dmMembers = access.kind === 'dm' ? access.memberIds : undefined;
    const rendered = await this.cache.get(
      converseId,
      PERSONAL_FEED,
      this.#rendered(converseId, (): Promise<Render> => this.#renderer.renderConverseFeed(converseId, dmMembers)),
    );
    this.#answer(req, res, rendered, 'atom');
  }

  /** A token not checked yet is looked up, which counts as a render: guessing tokens is no free read. */
  async #tokenOwner(token: string, count: () => Promise<void>): Promise<string | null> {
    const known = this.#tokenOwners.get(token);
    if (known) return known;
    await count();
    const revocations = this.#tokenRevocations;
    const owner = await call(this.#broker, 'user.feedTokenOwner', { token });
    if (owner && revocations === this.#tokenRevocations) this.#tokenOwners.set(token, owner);
    return owner;
  }

  #answer(req: IncomingMessage, res: ServerResponse, rendered: Rendered, format: PublicFormat): void {
    if (rendered === null) return this.#missing(res, format);
    sendPrepared(req, res, rendered);
  }

  /** Not public (or no such panel): a page for browsers, the catalog's 404 for feeds and the API. */
  #missing(res: ServerResponse, format: PublicFormat): void {
    if (format !== 'page') throw notFound();
    res.writeHead(404, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(NOT_FOUND_PAGE)),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(NOT_FOUND_PAGE);
  }
}

type Params = Record<string, string | undefined>;
