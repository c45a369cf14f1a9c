import type { ImportSource } from '../../source/types.ts';

/** DiscordChatExporter's JSON: one `.json` file, or a folder of them (one per channel or thread). */
export async function openDiscordExport(_path: string): Promise<ImportSource> {
  throw new Error('the Discord reader is not written yet');
}
