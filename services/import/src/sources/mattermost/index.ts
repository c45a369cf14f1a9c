import type { ImportSource } from '../../source/types.ts';

/** A Mattermost bulk export: its `.jsonl`, or a `.zip` holding it and its `data/` files. */
export async function openMattermostExport(_path: string): Promise<ImportSource> {
  throw new Error('the Mattermost reader is not written yet');
}
