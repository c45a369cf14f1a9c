export { createFileService } from './file.service.ts';
// For the capacity benchmark's dataset, written in the service's own shapes.
export { fileModel, type FileDoc } from './models.ts';
