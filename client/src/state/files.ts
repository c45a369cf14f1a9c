import type { FileInfo } from '../api/upload.ts';
import { getState, setState } from './store.ts';
import { accountSet } from './account-state.ts';
import { api } from '../api/api.ts';

const inFlight = accountSet<string>('files asked for');

export function rememberFile(info: FileInfo): void {
  setState((s) => ({ files: { ...s.files, [info.id]: info } }));
}

/** Loads a file's name, type and size once; 'missing' when it is gone or not ours to see. */
export function ensureFileInfo(fileId: string): void {
  if (getState().files[fileId] || inFlight.has(fileId)) return;
  inFlight.add(fileId);
  api
    .call('file.info', { fileId })
    .then((info) => rememberFile(info))
    .catch(() => setState((s) => ({ files: { ...s.files, [fileId]: 'missing' } })))
    .finally(() => inFlight.delete(fileId));
}
