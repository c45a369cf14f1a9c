/**
 * The lines of a Mattermost bulk export, as far as the reader uses them.
 * Each line is one JSON object `{"type": T, T: {...}}`; the object under the
 * type's own name holds the record. Every field may be missing or of another
 * type in a hand-edited or third-party file, so records are read through the
 * small accessors below and never trusted as typed.
 */

/** Line types the reader reads; every other type (`version`, `scheme`, `role`...) is passed over. */
export type ReadLineType = 'team' | 'channel' | 'user' | 'bot' | 'post' | 'direct_channel' | 'direct_post' | 'emoji';

/** Types the reader knows and leaves alone on purpose (counted apart from types it has never heard of). */
export const SETTINGS_LINE_TYPES: ReadonlySet<string> = new Set(['version', 'scheme', 'role']);

export type MattermostRecord = Record<string, unknown>;

export interface ExportLine {
  type: string;
  record: MattermostRecord;
}

export const isRecord = (value: unknown): value is MattermostRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** Milliseconds since the epoch, as every `*_at` field of the export holds them; 0 and absent mean "never". */
export const millis = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;

export const records = (value: unknown): MattermostRecord[] => (Array.isArray(value) ? value.filter(isRecord) : []);

export const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

/** Usernames are lower case in Mattermost; references to them (authors, members, mentions) are compared that way. */
export const usernameKey = (value: unknown): string | undefined => text(value)?.trim().toLowerCase();

/** `{name: value}` when there is a value, `{}` otherwise (optional properties stay absent, never `undefined`). */
export function optional<K extends string>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, string>);
}
