import type { AppContext, ObjectStorage } from '@im/sdk';
import type { ExportModels } from './export-models.ts';
import type { ImportModels } from './models.ts';

/** What the import service's actions share. */
export interface ImportDeps {
  app: AppContext;
  models: ImportModels & ExportModels;
  /** Where imported files go and exports are kept (the platform's object storage). */
  storage: ObjectStorage;
}
