import type { ImportSource } from '../source/types.ts';

/** This platform's own export archive (a group's or a person's), read back. */
export async function openImArchive(_path: string): Promise<ImportSource> {
  throw new Error('the archive reader is not written yet');
}
