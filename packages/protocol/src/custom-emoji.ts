/** A custom emoji's name, as `:name:` carries it (a RegExp source, without anchors). */
export const CUSTOM_EMOJI_NAME = '[a-z0-9_]{2,32}';

/** The whole of a name, for forms and parameters. */
export const CUSTOM_EMOJI_NAME_PATTERN = `^${CUSTOM_EMOJI_NAME}$`;
