import { http, path } from '../api/http.ts';
import type { FileInfo } from '../api/upload.ts';
import { getState, setState } from './store.ts';
import { accountSet } from './account-state.ts';

const inFlight = accountSet<string>('files asked for');

export function rememberFile(info: FileInfo): void {
  setState((s) => ({ files: { ...s.files, [info.id]: info } }));
}

/** Loads a file's name, type and size once; 'missing' when it is gone or not ours to see. */
export function ensureFileInfo(fileId: string): void {
  if (getState().files[fileId] || inFlight.has(fileId)) return;
  inFlight.add(fileId);
  http
    .get<FileInfo>(path`/api/files/${fileId}/info`)
    .then((info) => rememberFile(info))
    .catch(() => setState((s) => ({ files: { ...s.files, [fileId]: 'missing' } })))
    .finally(() => inFlight.delete(fileId));
}
