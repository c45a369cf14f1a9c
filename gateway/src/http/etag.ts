/**
 * Whether If-None-Match names this ETag: weak comparison, as for GET and
 * HEAD (`W/` ignored on both sides), a list of tags, or `*`. The same header
 * as the ETag, the usual case, needs no parsing.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}
