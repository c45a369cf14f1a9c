import { http } from '../../api/http.ts';
import { uploadFile } from '../../api/upload.ts';
import { rememberFile } from '../../state/files.ts';
import type { Uploader } from './Composer.tsx';

/** How a composer uploads a file the user attached (the timeline's and the thread pane's). */
export const upload: Uploader = (file, onProgress) => {
  const handle = uploadFile(file, http.getToken(), onProgress);
  // Known at once, so the sent message shows the file without asking for it.
  void handle.promise.then(rememberFile, () => undefined);
  return handle;
};
