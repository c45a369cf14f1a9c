import { createInterface } from 'node:readline';
import type { MattermostFiles } from './export-files.ts';
import { isRecord, type ExportLine } from './records.ts';

/** A line that is not a JSON object with its type's record: the reason it cannot be read. */
export interface UnreadableLine {
  unreadable: string;
}

/**
 * The export's lines in file order, streamed (an export can hold millions
 * of lines: only the current one is in memory). Blank lines are nothing;
 * a line that is not JSON, or not `{"type": T, T: {...}}`, comes out as
 * unreadable so the caller can count it and go on.
 */
export async function* readExportLines(files: MattermostFiles): AsyncGenerator<ExportLine | UnreadableLine> {
  const input = await files.openJsonl();
  const lines = createInterface({ input, crlfDelay: Infinity });
  let first = true;
  try {
    for await (const raw of lines) {
      // A byte order mark some editors write is no part of the first line's JSON.
      const line = first ? raw.replace(/^\uFEFF/, '') : raw;
      first = false;
      if (line.trim() === '') continue;
      yield parseLine(line);
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

function parseLine(raw: string): ExportLine | UnreadableLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { unreadable: 'line that is not JSON' };
  }
  if (!isRecord(value) || typeof value.type !== 'string') return { unreadable: 'line without a type' };
  const record = value[value.type];
  // `version` holds a number, not a record; the reader never needs it.
  return { type: value.type, record: isRecord(record) ? record : {} };
}
