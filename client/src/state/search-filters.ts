/** The filter keys message search understands (the server reads them out of q; see services/chat/src/search). */
export const FILTER_KEYS = ['from', 'in', 'has', 'before', 'after', 'during'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** A filter as typed in the search box, with where it sits in the text. */
export interface TypedFilter {
  key: FilterKey;
  /** As typed after the colon (`@alice`, `#"design notes"`). */
  value: string;
  start: number;
  end: number;
}

// The same shape the server reads: a known key, a colon, a value quoted or up to the next space.
const FILTER = /(^|\s)(from|in|has|before|after|during):([#@]?"[^"]*"|\S*)/gi;

/** The filters in a search text (complete or not) and the words left to find. */
export function splitFilters(q: string): { text: string; filters: TypedFilter[] } {
  const filters: TypedFilter[] = [];
  const text = q.replace(FILTER, (all, lead: string, key: string, value: string, offset: number) => {
    const start = offset + lead.length;
    filters.push({ key: key.toLowerCase() as FilterKey, value, start, end: offset + all.length });
    return lead;
  });
  return { text: text.replace(/\s+/g, ' ').trim(), filters };
}

/** The text without one filter (a chip's remove button). */
export function withoutFilter(q: string, filter: TypedFilter): string {
  return `${q.slice(0, filter.start)}${q.slice(filter.end)}`.replace(/\s+/g, ' ').trim();
}

/** The `from:` or `in:` being typed where the caret is, to offer names for; its partial value and its span. */
export function filterAtCaret(
  q: string,
  caret: number,
): { key: 'from' | 'in'; partial: string; start: number; end: number } | null {
  const start = q.lastIndexOf(' ', caret - 1) + 1;
  const endSpace = q.indexOf(' ', caret);
  const end = endSpace < 0 ? q.length : endSpace;
  const word = q.slice(start, end);
  const m = /^(from|in):(.*)$/i.exec(word);
  if (!m) return null;
  return { key: m[1]!.toLowerCase() as 'from' | 'in', partial: m[2]!.replace(/^[#@]"?/, ''), start, end };
}

/** A value as the filter needs it: quoted when it holds a space. */
export const filterValue = (sigil: '#' | '@', name: string): string =>
  /\s/.test(name) ? `${sigil}"${name}"` : `${sigil}${name}`;
