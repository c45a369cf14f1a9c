/**
 * Characters XML 1.0 does not allow at all (C0 controls but tab, newline and
 * carriage return; lone surrogates; U+FFFE and U+FFFF): escaping cannot
 * express them, so they are dropped. HTML pages drop the same ones.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching the forbidden controls is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text or an attribute value for HTML or XML: the five special characters
 * as entities (so `]]>` and quotes are harmless anywhere), forbidden
 * characters dropped.
 */
export const escapeMarkup = (text: string): string => dropForbidden(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** The text without the characters XML forbids. */
export const dropForbidden = (text: string): string => text.replace(NOT_XML, '');
