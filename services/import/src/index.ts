export { createImportService } from './import.service.ts';
export { importModels, type ImportJobDoc, type ImportModels } from './models.ts';
export { jobProgress } from './job-progress.ts';
export { IMPORT_KINDS, openSource } from './sources/open-source.ts';
export type { ImportSource } from './source/types.ts';
export { runImport, UnknownOwnerError, type ImportOutcome, type ImportProgress } from './write/run-import.ts';
export { SkipCounter } from './source/skip-counter.ts';
export { mentionToken } from './source/mention-token.ts';
export { announceImport } from './announce/announce-import.ts';
export type {
  SourceChannel,
  SourceEmoji,
  SourceFile,
  SourceGroup,
  SourceMessage,
  SourceReaction,
  SourceUser,
} from './source/types.ts';
export { openImArchive, ImArchiveError } from './archive/index.ts';
export { openExportFiles, readJson, type ExportFiles } from './source/export-files.ts';
export { exportModels } from './export-models.ts';
export { failStaleExports, EXPORT_STALE_MS } from './export/export-runner.ts';
