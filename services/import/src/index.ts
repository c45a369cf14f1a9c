export { createImportService } from './import.service.ts';
export type { ImportSource } from './source/types.ts';
