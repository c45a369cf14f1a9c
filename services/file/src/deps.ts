import { ImError, type AppContext, type FileUrlSigner, type ObjectStorage } from '@im/sdk';
import type { FileModel } from './models.ts';
import type { Quota } from './quota.ts';

/** What the file service's actions share. */
export interface FileDeps {
  app: AppContext;
  files: FileModel;
  quota: Quota;
  signer: FileUrlSigner;
}

/** This node's storage; a file node without one cannot serve bytes. */
export function storageOf(app: AppContext): ObjectStorage {
  if (!app.storage) throw new ImError('IM_ERR_SERVICE_UNAVAILABLE', 'No file storage on this node');
  return app.storage;
}
