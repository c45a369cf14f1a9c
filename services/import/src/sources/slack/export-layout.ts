/**
 * Where things sit in a Slack export, worked out once from its list of file
 * names (nothing is read here):
 * - a folder per conversation holding one `YYYY-MM-DD.json` per day with
 *   messages (channels by name, direct messages by id);
 * - attached files, which Slack's own zip never holds (only their URLs), but
 *   which tools that complete an export put beside it: `__uploads/<file
 *   id>/<name>` (slack-advanced-exporter, slackdump's Mattermost layout) or
 *   `<folder>/attachments/<file id>-<name>` (slackdump's standard layout);
 * - custom emoji images under `emojis/<name>.<ext>` (slackdump's emoji dump
 *   copied into the export).
 */
export interface ExportLayout {
  /** The day files of each conversation folder, in date order. */
  dayFiles: ReadonlyMap<string, readonly string[]>;
  /** The path of an attached file's bytes, by Slack file id. */
  attachments: ReadonlyMap<string, string>;
  /** Emoji image paths by name. */
  emoji: ReadonlyMap<string, string>;
}

const DAY_FILE = /^([^/]+)\/(\d{4}-\d{2}-\d{2})\.json$/;
const UPLOAD = /^(?:.+\/)?__uploads\/([A-Za-z0-9]+)\/[^/]+$/;
const ATTACHMENT = /^(?:.+\/)?attachments\/([A-Za-z0-9]+)-[^/]+$/;
const EMOJI = /^emojis\/([^/]+)\.(?:png|gif|jpe?g|webp)$/i;

export function exportLayout(names: readonly string[]): ExportLayout {
  const dayFiles = new Map<string, string[]>();
  const attachments = new Map<string, string>();
  const emoji = new Map<string, string>();
  for (const name of names) {
    const day = DAY_FILE.exec(name);
    if (day) {
      const list = dayFiles.get(day[1]!) ?? [];
      list.push(name);
      dayFiles.set(day[1]!, list);
      continue;
    }
    const file = UPLOAD.exec(name) ?? ATTACHMENT.exec(name);
    if (file) {
      if (!attachments.has(file[1]!)) attachments.set(file[1]!, name);
      continue;
    }
    const image = EMOJI.exec(name);
    if (image) emoji.set(image[1]!, name);
  }
  // The names come sorted, and ISO dates sort in time order; sorted again so
  // the order never depends on the caller.
  for (const list of dayFiles.values()) list.sort();
  return { dayFiles, attachments, emoji };
}
