import type { ImportSource } from '../../source/types.ts';

/** A Slack export: its `.zip` or the folder it unpacks to. */
export async function openSlackExport(_path: string): Promise<ImportSource> {
  throw new Error('the Slack reader is not written yet');
}
