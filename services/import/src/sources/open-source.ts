import type { ImportKind } from '@im/protocol';
import { openImArchive } from '../archive/index.ts';
import type { ImportSource } from '../source/types.ts';
import { openDiscordExport } from './discord/index.ts';
import { openMattermostExport } from './mattermost/index.ts';
import { openSlackExport } from './slack/index.ts';

export const IMPORT_KINDS: readonly ImportKind[] = ['slack', 'mattermost', 'discord', 'im'];

/** The reader of an export of `kind` at `path` (a file or a folder, as each kind takes). */
export function openSource(kind: ImportKind, path: string): Promise<ImportSource> {
  switch (kind) {
    case 'slack':
      return openSlackExport(path);
    case 'mattermost':
      return openMattermostExport(path);
    case 'discord':
      return openDiscordExport(path);
    case 'im':
      return openImArchive(path);
  }
}
