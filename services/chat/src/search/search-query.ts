import { invalid } from '@im/sdk';

/** What `has:` may ask for. */
export const HAS_KINDS = ['file', 'image', 'link'] as const;
export type HasKind = (typeof HAS_KINDS)[number];

/** A day as the searcher names it (YYYY-MM-DD): its first millisecond in UTC, with the searcher's offset applied later. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

/** A search box's text split into the words to find and the filters around them. */
export interface SearchQuery {
  /** What is left once the filters are taken out (may be empty when filters alone narrow the search). */
  text: string;
  /** `from:@username`, lower-cased (several: any of them). */
  from: string[];
  /** `in:#panel` names and `in:@username` DMs (several: any of them). */
  inPanels: string[];
  inDms: string[];
  has: HasKind[];
  before?: Day;
  after?: Day;
  during?: Day;
}

/**
 * `key:value` where key is one of ours; a value may be quoted to hold spaces
 * (`in:#"team notes"`). Other words with colons (links, times) stay text.
 */
const FILTER = /(^|\s)(from|in|has|before|after|during):([#@]?"[^"]*"|\S*)/gi;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const QUOTED = /^([#@]?)"(.*)"$/;
const unquote = (value: string) => {
  const m = QUOTED.exec(value);
  return (m ? `${m[1]}${m[2]!.trim()}` : value).trim();
};

const bad = (filter: string, why: string) => invalid(`Search filter '${filter}': ${why}`, { filter });

function parseDay(filter: string, value: string): Day {
  const m = DAY.exec(value);
  if (!m) throw bad(filter, 'a date must be written YYYY-MM-DD');
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2024-02-31 over into March: such a day does not exist.
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day)
    throw bad(filter, 'no such day');
  return { year, month, day };
}

/** Usernames are letters, digits, `_`, `.` and `-`: anything else names nobody. */
const USERNAME = /^[a-z0-9_.-]{1,64}$/i;
function username(filter: string, name: string): string {
  if (!USERNAME.test(name)) throw bad(filter, `no user is called @${name}`);
  return name.toLowerCase();
}

/** Splits the search text; a filter with a missing or wrong value is a 400 that names it. */
export function parseSearchQuery(q: string): SearchQuery {
  const query: SearchQuery = { text: '', from: [], inPanels: [], inDms: [], has: [] };
  let filters = 0;
  const text = q.replace(FILTER, (_all, lead: string, rawKey: string, rawValue: string) => {
    const key = rawKey.toLowerCase();
    const value = unquote(rawValue);
    const filter = `${key}:${rawValue}`;
    filters += 1;
    if (!value) throw bad(filter, 'a value must follow the colon');
    switch (key) {
      case 'from': {
        if (!value.startsWith('@') || value.length < 2) throw bad(filter, 'name a user as from:@username');
        query.from.push(username(filter, value.slice(1)));
        break;
      }
      case 'in': {
        if (value.startsWith('#') && value.length > 1) query.inPanels.push(value.slice(1).toLowerCase());
        else if (value.startsWith('@') && value.length > 1) query.inDms.push(username(filter, value.slice(1)));
        else throw bad(filter, 'name a panel as in:#panel or a direct message as in:@username');
        break;
      }
      case 'has': {
        const kind = value.toLowerCase();
        if (!(HAS_KINDS as readonly string[]).includes(kind)) throw bad(filter, `has: takes ${HAS_KINDS.join(', ')}`);
        if (!query.has.includes(kind as HasKind)) query.has.push(kind as HasKind);
        break;
      }
      default: {
        const slot = key as 'before' | 'after' | 'during';
        if (query[slot]) throw bad(filter, `give ${key}: once`);
        query[slot] = parseDay(filter, value);
      }
    }
    return lead;
  });
  // Without filters the text is searched exactly as typed, as before filters existed.
  query.text = filters > 0 ? text.replace(/\s+/g, ' ').trim() : q;
  return query;
}

/** The first millisecond of a day for someone `offsetMin` minutes east of UTC. */
export const dayStart = (day: Day, offsetMin: number, plusDays = 0): Date =>
  new Date(Date.UTC(day.year, day.month - 1, day.day + plusDays) - offsetMin * 60_000);
