export { createFileService, type FileAccess, type FileView } from './file.service.ts';
