import { call, escapeRegex, type Ctx } from '@im/sdk';
import { Types, type FilterQuery } from 'mongoose';
import type { MessageDoc } from '../models.ts';
import { memberIdsOf, type DmRecord } from '../store/dm-records.ts';
import { dayStart, parseSearchQuery, type SearchQuery } from './search-query.ts';
import { invalid } from '@im/sdk';

/** A link as has:link counts it: a web address in the text, or a preview card the server took. */
const LINK = /https?:\/\/\S/i;

/** What the search looks in and for: the converses left after in:, and the rest of the filters as a query. */
export interface SearchPlan {
  converseIds: string[];
  filter: FilterQuery<MessageDoc>;
}

interface Mine {
  /** The converses the caller reads now (group panels they see and their DMs). */
  converseIds: string[];
  dms: DmRecord[];
}

/** Usernames to ids; a name nobody has is a 400 naming the filter it came from. */
async function idsOf(ctx: Ctx<object>, names: string[], filter: string): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const found = await call(ctx, 'user.idsByUsernames', { usernames: names });
  const ids = new Map(Object.entries(found));
  const missing = names.find((n) => !ids.has(n));
  if (missing) throw invalid(`Search filter '${filter}:@${missing}': no user is called @${missing}`, { filter });
  return ids;
}

/** The caller's panels with one of these names (any of their groups), as converse ids. */
async function panelsNamed(ctx: Ctx<object>, names: string[], readable: Set<string>): Promise<string[]> {
  const groups = await call(ctx, 'group.list', {});
  const out: string[] = [];
  for (const name of names) {
    const hits = groups.flatMap((g) =>
      g.panels.filter((p) => p.name.toLowerCase() === name && readable.has(p.converseId)).map((p) => p.converseId),
    );
    if (hits.length === 0)
      throw invalid(`Search filter 'in:#${name}': none of your panels is called #${name}`, {
        filter: 'in',
      });
    out.push(...hits);
  }
  return out;
}

/** Narrows the converses to those in: names, when any is given. */
async function converseScope(ctx: Ctx<object>, me: string, query: SearchQuery, mine: Mine): Promise<string[]> {
  if (query.inPanels.length === 0 && query.inDms.length === 0) return mine.converseIds;
  const readable = new Set(mine.converseIds);
  const scope = await panelsNamed(ctx, query.inPanels, readable);
  const partners = await idsOf(ctx, query.inDms, 'in');
  for (const [name, id] of partners) {
    const dm = mine.dms.find((d) => {
      const members = memberIdsOf(d);
      return members.includes(me) && members.includes(id);
    });
    if (!dm) throw invalid(`Search filter 'in:@${name}': you have no direct messages with @${name}`, { filter: 'in' });
    scope.push(dm._id.toHexString());
  }
  return [...new Set(scope)];
}

/**
 * Turns the search box's text into where to look and what to match. `offsetMin`
 * is the searcher's distance from UTC, so before:/after:/during: mean their days.
 */
export async function planSearch(
  ctx: Ctx<object>,
  me: string,
  q: string,
  offsetMin: number,
  mine: Mine,
): Promise<SearchPlan> {
  const query = parseSearchQuery(q);
  const converseIds = await converseScope(ctx, me, query, mine);
  const and: Array<FilterQuery<MessageDoc>> = [];
  if (query.text) and.push({ content: new RegExp(escapeRegex(query.text), 'i') });
  if (query.from.length > 0) {
    const authors = await idsOf(ctx, query.from, 'from');
    and.push({ authorId: { $in: [...authors.values()].map((id) => new Types.ObjectId(id)) } });
  }
  for (const kind of query.has) {
    if (kind === 'file') and.push({ 'attachments.0': { $exists: true } });
    if (kind === 'image') and.push({ imageAttached: true });
    if (kind === 'link') and.push({ $or: [{ content: LINK }, { preview: { $exists: true } }] });
  }
  const createdAt: { $gte?: Date; $lt?: Date } = {};
  if (query.during) {
    createdAt.$gte = dayStart(query.during, offsetMin);
    createdAt.$lt = dayStart(query.during, offsetMin, 1);
  }
  if (query.after) {
    // after: is from the day after, as people say it ("after Monday" is Tuesday on).
    const from = dayStart(query.after, offsetMin, 1);
    if (!createdAt.$gte || from > createdAt.$gte) createdAt.$gte = from;
  }
  if (query.before) {
    const until = dayStart(query.before, offsetMin);
    if (!createdAt.$lt || until < createdAt.$lt) createdAt.$lt = until;
  }
  if (createdAt.$gte || createdAt.$lt) and.push({ createdAt });
  return { converseIds, filter: and.length > 0 ? { $and: and } : {} };
}
