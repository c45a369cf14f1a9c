/** A custom emoji's name, as `:name:` carries it (a RegExp source, without anchors). */
export const CUSTOM_EMOJI_NAME = '[a-z0-9_]{2,32}';

/** The whole of a name, for forms and parameters. */
export const CUSTOM_EMOJI_NAME_PATTERN = `^${CUSTOM_EMOJI_NAME}$`;

/** Image types a custom emoji may be (sniffed from its bytes): what a browser draws inline, SVG left out (it can carry script). */
export const CUSTOM_EMOJI_TYPES: readonly string[] = [
  'image/png',
  'image/gif',
  'image/jpeg',
  'image/webp',
  'image/avif',
];
