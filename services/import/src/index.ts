export { createImportService } from './import.service.ts';
export type { ImportSource } from './source/types.ts';
export { openImArchive, ImArchiveError } from './archive/index.ts';
export { openExportFiles, readJson, type ExportFiles } from './source/export-files.ts';
