import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type ExportFiles, openExportFiles } from '../../source/export-files.ts';

/** The export's files and, among them, the JSON files of its channels and threads (in a stable order). */
export interface DiscordExportFiles {
  files: ExportFiles;
  jsonNames: string[];
  /** Whether the export holds that file (a media file beside a JSON file). */
  exists(name: string): Promise<boolean>;
}

/**
 * A folder (or a zip of one) of JSON files, or a single JSON file. A single
 * file is read together with what lies beside it (its media folder), but the
 * folder around it is not listed: it may be any folder of the disk.
 */
export async function openDiscordFiles(path: string): Promise<DiscordExportFiles> {
  if ((await stat(path)).isFile() && path.toLowerCase().endsWith('.json')) {
    const root = dirname(path);
    const onDisk = (name: string): string => join(root, ...name.split('/'));
    const exists = async (name: string): Promise<boolean> =>
      stat(onDisk(name)).then(
        (s) => s.isFile(),
        () => false,
      );
    const jsonName = basename(path);
    const files: ExportFiles = {
      names: [jsonName],
      // Only the JSON file is listed; its media are looked up when asked for.
      has: (name) => name === jsonName,
      open: async (name) => ((await exists(name)) ? createReadStream(onDisk(name)) : undefined),
      close: async () => undefined,
    };
    return { files, jsonNames: [jsonName], exists };
  }
  const files = await openExportFiles(path);
  return {
    files,
    jsonNames: files.names.filter((name) => name.toLowerCase().endsWith('.json')),
    exists: async (name) => files.has(name),
  };
}
