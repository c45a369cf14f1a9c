import type { Readable } from 'node:stream';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;

/** The JSON text was cut short or is not JSON where the items are. */
export class BrokenJsonError extends Error {}

/**
 * The objects of one top-level array of a JSON object (`{"messages": [{…}, …]}`),
 * parsed one at a time as the text streams by. It only follows strings and
 * brackets to find where each object ends, and leaves the parsing to
 * `JSON.parse`: several times faster than a token stream (stream-json turns
 * every key and value into a stream event), which matters for a channel of
 * millions of messages. Reading stops at the array's end.
 */
export async function* topLevelArrayItems(source: Readable, key: string): AsyncGenerator<unknown> {
  source.setEncoding('utf8');
  let depth = 0;
  let inString = false;
  let escaped = false;
  // At depth 1 (the root object's own keys): the last string seen, to know which key an array belongs to.
  let keyText = '';
  let keyStart = -1;
  let lastKey = '';
  let pendingKey = '';
  let inArray = false;
  // The item being read: its text from earlier chunks, and where it starts in this one.
  let carried = '';
  let itemStart = -1;
  for await (const chunk of source as AsyncIterable<string>) {
    const items: unknown[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (depth === 1 && keyStart >= 0) {
            keyText = pendingKey + chunk.slice(keyStart, i);
            pendingKey = '';
            keyStart = -1;
          }
        }
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        if (depth === 1) keyStart = i + 1;
      } else if (c === COLON) {
        if (depth === 1) lastKey = keyText;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        if (depth === 2 && c === OPEN_BRACKET && lastKey === key) inArray = true;
        else if (depth === 3 && inArray && c === OPEN_BRACE) itemStart = i;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (inArray && depth === 2 && c === CLOSE_BRACE && itemStart >= 0) {
          const text = carried + chunk.slice(itemStart, i + 1);
          carried = '';
          itemStart = -1;
          try {
            items.push(JSON.parse(text));
          } catch {
            throw new BrokenJsonError('an item is not JSON');
          }
        } else if (inArray && depth === 1) {
          yield* items;
          return;
        } else if (depth < 0) throw new BrokenJsonError('unbalanced brackets');
      }
    }
    if (inString && depth === 1 && keyStart >= 0) {
      pendingKey += chunk.slice(keyStart);
      keyStart = 0;
    }
    if (itemStart >= 0) {
      carried += chunk.slice(itemStart);
      itemStart = 0;
    }
    yield* items;
  }
  if (inArray) throw new BrokenJsonError('the text ends inside the array');
}
