export { createFileService } from './file.service.ts';
