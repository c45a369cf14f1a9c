/** An http(s) link in text, up to white space or a character that cannot end one unescaped. */
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/i;

/** Punctuation that ends a sentence rather than the link ("see https://x.org/a."). */
const TRAILING = /[.,;:!?)\]}*_~]+$/;

/**
 * The first http(s) URL of a message, or undefined (too long or malformed ones are skipped):
 * the link a preview is made for, and kept for while an edit keeps it.
 */
export function firstLink(content: string): URL | undefined {
  const raw = LINK.exec(content)?.[0].replace(TRAILING, '');
  if (!raw || raw.length > 2048) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
